# replaces: transfer-solution
# fails: transfer-test
def bootstrap_means(key, data, num_resamples):
    # Resamples without replacement: every "resample" is a reordering, so every mean is the data's mean.
    def resample_mean(resample_key):
        return jnp.mean(jax.random.permutation(resample_key, data))

    return jax.vmap(resample_mean)(jax.random.split(key, num_resamples))
