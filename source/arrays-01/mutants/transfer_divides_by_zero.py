# replaces: transfer-solution
# fails: transfer-test
def fit_channel_standardizer(images):
    # No constant-channel policy: a constant channel keeps scale 0.
    images = jnp.asarray(images)
    axes = (0, 2, 3)
    return images.mean(axis=axes, keepdims=True), images.std(axis=axes, keepdims=True)
