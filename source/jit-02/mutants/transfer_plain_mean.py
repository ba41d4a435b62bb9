# replaces: transfer-solution
# fails: transfer-test
def masked_mean(padded, length):
    # Averages the padding too.
    return jnp.mean(padded)
