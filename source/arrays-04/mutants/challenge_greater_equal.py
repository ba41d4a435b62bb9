# replaces: challenge-solution
# fails: challenge-test
def mask_above(values, threshold):
    # >= keeps values equal to the threshold, which "strictly greater" drops.
    return jnp.where(values >= threshold, values, jnp.zeros_like(values))


def select_above(values, threshold):
    return values[values >= threshold]
