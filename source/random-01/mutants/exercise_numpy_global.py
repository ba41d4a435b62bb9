# replaces: exercise-solution
# fails: exercise-test
def dropout_mask(key, shape, rate):
    # Ignores the key and draws from NumPy's hidden global state: the same key gives another mask each call.
    return np.random.random_sample(shape) >= rate
