# replaces: exercise-solution
# fails: exercise-test
def dropout_mask(key, shape, rate):
    # Draws from a key made inside the function: every call returns the same mask, whatever key it gets.
    return jax.random.bernoulli(jax.random.key(0), 1.0 - rate, shape)
