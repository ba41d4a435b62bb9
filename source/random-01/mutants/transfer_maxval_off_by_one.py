# replaces: transfer-solution
# fails: transfer-test
def bootstrap_means(key, data, num_resamples):
    # randint's maxval is exclusive: (0, n - 1) never picks the last data point.
    n = data.shape[0]

    def resample_mean(resample_key):
        return jnp.mean(data[jax.random.randint(resample_key, (n,), 0, n - 1)])

    return jax.vmap(resample_mean)(jax.random.split(key, num_resamples))
