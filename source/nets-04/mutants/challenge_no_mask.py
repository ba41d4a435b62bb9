# replaces: challenge-solution
# fails: challenge-test
def multi_head_attention(params, x, num_heads):
    # No causal mask: every token attends to the future too.
    q, k, v = (split_heads(x @ params[name], num_heads) for name in ("wq", "wk", "wv"))
    heads = jax.vmap(attention, in_axes=(0, 0, 0))(q, k, v)
    return merge_heads(heads) @ params["wo"]
