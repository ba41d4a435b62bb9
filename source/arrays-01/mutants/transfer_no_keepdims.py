# replaces: transfer-solution
# fails: transfer-test
def fit_channel_standardizer(images):
    # Drops the reduced axes: shape (C,), which broadcasts against the width axis W.
    images = jnp.asarray(images)
    axes = (0, 2, 3)
    mean = images.mean(axis=axes)
    std = images.std(axis=axes)
    scale = jnp.where(images.max(axis=axes) == images.min(axis=axes), 1.0, std)
    return mean, scale
