# replaces: transfer-solution
# fails: transfer-test
def sync_standardize(x, mesh, eps=1e-5):
    """(x - mean) / sqrt(var + eps) for x (n, features), the rows split over all mesh axes, with the mean and
    the population variance of each feature over ALL n rows, computed with jax.shard_map. The result is
    split over the mesh exactly as x is."""
    # The right numbers, computed on a copy of the whole batch on every device: the result comes
    # back replicated instead of split like x.
    x = jax.device_put(x, NamedSharding(mesh, P()))
    mean = jnp.mean(x, axis=0)
    return (x - mean) / jnp.sqrt(jnp.mean((x - mean) ** 2, axis=0) + eps)
