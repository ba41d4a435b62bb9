# replaces: practice-pool-solution
# fails: practice-pool-test
def max_pool_2x2(x):
    # "SAME" padding keeps the odd last row and column as a half-empty block: ceil instead of floor.
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "SAME")
