# replaces: exercise-solution
# fails: exercise-test
def dropout_mask(key, shape, rate):
    # Passes the drop rate as the keep probability: rate 0.25 keeps a quarter instead of three quarters.
    return jax.random.bernoulli(key, rate, shape)
