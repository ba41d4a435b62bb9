# replaces: transfer-solution
# fails: transfer-test
def fit_channel_standardizer(images):
    # Averages per-image statistics: the mean of per-image standard deviations ignores how much
    # the images differ from each other.
    images = jnp.asarray(images)
    mean = images.mean(axis=(2, 3), keepdims=True).mean(axis=0, keepdims=True)
    std = images.std(axis=(2, 3), keepdims=True).mean(axis=0, keepdims=True)
    axes = (0, 2, 3)
    is_constant = images.max(axis=axes, keepdims=True) == images.min(axis=axes, keepdims=True)
    return mean, jnp.where(is_constant, 1.0, std)
