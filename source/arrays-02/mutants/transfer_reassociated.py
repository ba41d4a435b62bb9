# replaces: transfer-solution
# fails: transfer-test
def float32_increment(large, small):
    # (large + small) - large rearranged as (large - large) + small: equal on paper,
    # but it never forms the rounded sum.
    large32 = jnp.float32(large)
    small32 = jnp.float32(small)
    return float((large32 - large32) + small32)
