# replaces: transfer-solution
# fails: transfer-test
def masked_mean(padded, length):
    # Masks the padding, then divides by the padded size instead of the real length.
    keep = jnp.arange(padded.shape[0]) < length
    return jnp.mean(jnp.where(keep, padded, 0.0))
