# replaces: challenge-solution
# fails: challenge-test
def mask_above(values, threshold):
    # The float 0.0 promotes an int32 input to float32: same values, wrong dtype.
    return jnp.where(values > threshold, values, 0.0)


def select_above(values, threshold):
    return values[values > threshold]
