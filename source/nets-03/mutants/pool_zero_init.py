# replaces: practice-pool-solution
# fails: practice-pool-test
def max_pool_2x2(x):
    # Starts the maximum from 0 instead of -inf: a block of negative values reports 0.
    return lax.reduce_window(x, 0.0, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
