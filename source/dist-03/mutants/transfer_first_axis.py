# replaces: transfer-solution
# fails: transfer-test
def sync_standardize(x, mesh, eps=1e-5):
    """(x - mean) / sqrt(var + eps) for x (n, features), the rows split over all mesh axes, with the mean and
    the population variance of each feature over ALL n rows, computed with jax.shard_map. The result is
    split over the mesh exactly as x is."""
    # Splits and reduces over the first mesh axis only: the values are right, but on a 2-D mesh the
    # result is copied along the second axis instead of split over both.
    axis = mesh.axis_names[0]
    x = jax.device_put(x, NamedSharding(mesh, P(axis)))
    n = x.shape[0]

    def local(block):
        mean = jax.lax.psum(jnp.sum(block, axis=0), axis) / n
        var = jax.lax.psum(jnp.sum((block - mean) ** 2, axis=0), axis) / n
        return (block - mean) / jnp.sqrt(var + eps)

    return jax.jit(jax.shard_map(local, mesh=mesh, in_specs=P(axis), out_specs=P(axis)))(x)
