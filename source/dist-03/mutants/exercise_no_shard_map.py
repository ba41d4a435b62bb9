# replaces: exercise-solution
# fails: exercise-test
def masked_global_mean(x, mask, mesh):
    """The mean of the rows of x (n, features) where mask (n,) is True, computed with jax.shard_map
    on mesh, the rows split over all mesh axes. Returns a (features,) array, the same on every device."""
    # The right numbers from the global formula, but no shard_map: nothing per device was written.
    weights = jnp.asarray(mask, jnp.float32)[:, None]
    return jnp.sum(jnp.asarray(x) * weights, axis=0) / jnp.sum(weights)
