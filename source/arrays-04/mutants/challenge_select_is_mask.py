# replaces: challenge-solution
# fails: challenge-test
def mask_above(values, threshold):
    return jnp.where(values > threshold, values, jnp.zeros_like(values))


def select_above(values, threshold):
    # Returns the fixed-shape mask again: zeros are kept instead of being removed.
    return mask_above(values, threshold)
