# replaces: transfer-solution
# fails: transfer-test
def sync_standardize(x, mesh, eps=1e-5):
    """(x - mean) / sqrt(var + eps) for x (n, features), the rows split over all mesh axes, with the mean and
    the population variance of each feature over ALL n rows, computed with jax.shard_map. The result is
    split over the mesh exactly as x is."""
    # Every device standardizes its rows with its own mean and variance: no collective, no error,
    # and the result depends on how the batch was split.
    axes = tuple(mesh.axis_names)
    x = jax.device_put(x, NamedSharding(mesh, P(axes)))

    def local(block):
        mean = jnp.mean(block, axis=0)
        var = jnp.mean((block - mean) ** 2, axis=0)
        return (block - mean) / jnp.sqrt(var + eps)

    return jax.jit(jax.shard_map(local, mesh=mesh, in_specs=P(axes), out_specs=P(axes)))(x)
