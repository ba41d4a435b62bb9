# replaces: practice-pool-solution
# fails: practice-pool-test
def max_pool_2x2(x):
    # Average pooling instead of max pooling: the mean of each 2 x 2 block.
    return lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4
