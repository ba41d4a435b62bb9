# replaces: transfer-solution
# fails: transfer-test
def sync_standardize(x, mesh, eps=1e-5):
    """(x - mean) / sqrt(var + eps) for x (n, features), the rows split over all mesh axes, with the mean and
    the population variance of each feature over ALL n rows, computed with jax.shard_map. The result is
    split over the mesh exactly as x is."""
    # The global mean, but the variance as the average of the devices' variances around their own
    # means: the spread between the devices' means is left out.
    axes = tuple(mesh.axis_names)
    x = jax.device_put(x, NamedSharding(mesh, P(axes)))

    def local(block):
        mean = jax.lax.pmean(jnp.mean(block, axis=0), axes)
        var = jax.lax.pmean(jnp.var(block, axis=0), axes)
        return (block - mean) / jnp.sqrt(var + eps)

    return jax.jit(jax.shard_map(local, mesh=mesh, in_specs=P(axes), out_specs=P(axes)))(x)
