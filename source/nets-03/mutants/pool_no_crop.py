# replaces: practice-pool-solution
# fails: practice-pool-test
def max_pool_2x2(x):
    # The reshape of Step 3 without cropping: fine for even sizes, an error for odd ones.
    n, h, w, c = x.shape
    return x.reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))
