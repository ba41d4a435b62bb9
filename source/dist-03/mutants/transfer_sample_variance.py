# replaces: transfer-solution
# fails: transfer-test
def sync_standardize(x, mesh, eps=1e-5):
    """(x - mean) / sqrt(var + eps) for x (n, features), the rows split over all mesh axes, with the mean and
    the population variance of each feature over ALL n rows, computed with jax.shard_map. The result is
    split over the mesh exactly as x is."""
    # Divides the squared deviations by n - 1 (the sample variance) instead of n.
    axes = tuple(mesh.axis_names)
    x = jax.device_put(x, NamedSharding(mesh, P(axes)))
    n = x.shape[0]

    def local(block):
        mean = jax.lax.psum(jnp.sum(block, axis=0), axes) / n
        var = jax.lax.psum(jnp.sum((block - mean) ** 2, axis=0), axes) / (n - 1)
        return (block - mean) / jnp.sqrt(var + eps)

    return jax.jit(jax.shard_map(local, mesh=mesh, in_specs=P(axes), out_specs=P(axes)))(x)
