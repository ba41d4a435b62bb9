# replaces: transfer-solution
# fails: transfer-test
def attend_last(q, k, v):
    # is_causal=True aligns the mask at the top-left: query i sees keys 0 ... i, not 0 ... Tk - Tq + i.
    return jax.nn.dot_product_attention(q, k, v, is_causal=True)
