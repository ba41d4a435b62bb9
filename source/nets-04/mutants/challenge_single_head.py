# replaces: challenge-solution
# fails: challenge-test
def multi_head_attention(params, x, num_heads):
    # Ignores num_heads: one attention over the full width, scaled by sqrt(D) instead of sqrt(D / N).
    q, k, v = (x @ params[name] for name in ("wq", "wk", "wv"))
    return attention(q, k, v, causal_mask(x.shape[0])) @ params["wo"]
