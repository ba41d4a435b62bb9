# replaces: transfer-solution
# fails: transfer-test
def attend_last(q, k, v):
    # No mask: every query sees every key, the positions after its own included.
    return jax.nn.dot_product_attention(q, k, v)
