# replaces: practice-solution
# fails: practice-test
def apply_standardizer(batch, stats):
    # Treats a feature with scale 1 as "constant, so uninformative" and zeroes it out, hiding a
    # changed value (and wrongly zeroing any feature whose real std is 1).
    mean, scale = stats
    return jnp.where(scale == 1.0, 0.0, (batch - mean) / scale)
