# replaces: transfer-solution
# fails: transfer-test
def masked_mean(padded, length):
    # `<=` keeps one padding entry too many.
    keep = jnp.arange(padded.shape[0]) <= length
    return jnp.sum(jnp.where(keep, padded, 0.0)) / length
