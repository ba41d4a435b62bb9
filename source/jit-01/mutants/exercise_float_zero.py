# replaces: exercise-solution
# fails: exercise-test
def masked_sum(x, threshold):
    # The float 0.0 promotes an int32 array to float32: the sum has the wrong dtype.
    return jnp.sum(jnp.where(x > threshold, x, 0.0))
