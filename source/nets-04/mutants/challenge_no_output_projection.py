# replaces: challenge-solution
# fails: challenge-test
def multi_head_attention(params, x, num_heads):
    # Returns the merged heads without the output projection wo.
    q, k, v = (split_heads(x @ params[name], num_heads) for name in ("wq", "wk", "wv"))
    heads = jax.vmap(attention, in_axes=(0, 0, 0, None))(q, k, v, causal_mask(x.shape[0]))
    return merge_heads(heads)
