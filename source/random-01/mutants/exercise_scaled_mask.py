# replaces: exercise-solution
# fails: exercise-test
def dropout_mask(key, shape, rate):
    # Returns the inverted-dropout scale (0 or 1 / (1 - rate)) as floats instead of a boolean mask.
    keep = jax.random.bernoulli(key, 1.0 - rate, shape)
    return keep / (1.0 - rate)
