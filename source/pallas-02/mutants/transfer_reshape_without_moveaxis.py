# replaces: transfer-solution
# fails: transfer-test
def pallas_heads(q, k, v, block):
    # (*batch, T, heads, d) reshaped to (N, T, d) without moving the heads axis: each "sequence" interleaves
    # the heads of consecutive positions.
    *batch, T, heads, head_dim = q.shape
    rows = lambda a: a.reshape(-1, T, head_dim)
    out = kernel_attention(rows(q), rows(k), rows(v), block, block)
    return out.reshape(*batch, T, heads, head_dim)
