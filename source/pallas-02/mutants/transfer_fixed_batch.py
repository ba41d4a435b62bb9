# replaces: transfer-solution
# fails: transfer-test
def pallas_heads(q, k, v, block):
    # One batch axis assumed, as in the model: (B, T, H, d) only.
    B, T, heads, head_dim = q.shape
    rows = lambda a: a.transpose(0, 2, 1, 3).reshape(B * heads, T, head_dim)
    out = kernel_attention(rows(q), rows(k), rows(v), block, block)
    return out.reshape(B, heads, T, head_dim).transpose(0, 2, 1, 3)
