# replaces: transfer-solution
# fails: transfer-test
def masked_mean(padded, length):
    # Right divisor, but assumes the padding is zero: stale values leak into the sum.
    return jnp.sum(padded) / length
