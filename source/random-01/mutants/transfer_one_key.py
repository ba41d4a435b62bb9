# replaces: transfer-solution
# fails: transfer-test
def bootstrap_means(key, data, num_resamples):
    # Hands the same key to every resample (in_axes=None): all the means are equal.
    n = data.shape[0]

    def resample_mean(resample_key):
        return jnp.mean(data[jax.random.randint(resample_key, (n,), 0, n)])

    return jax.vmap(resample_mean, in_axes=None, axis_size=num_resamples)(key)
