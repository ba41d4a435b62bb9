# replaces: practice-pool-solution
# fails: practice-pool-test
def max_pool_2x2(x):
    # A 2 x 2 window with stride 1 (the default of nnx.max_pool): overlapping blocks, H - 1 by W - 1.
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 1, 1, 1), "VALID")
