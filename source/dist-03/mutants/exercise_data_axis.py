# replaces: exercise-solution
# fails: exercise-test
def masked_global_mean(x, mask, mesh):
    """The mean of the rows of x (n, features) where mask (n,) is True, computed with jax.shard_map
    on mesh, the rows split over all mesh axes. Returns a (features,) array, the same on every device."""
    # Copies the lesson's axis name "data": any mesh with other axis names is refused.
    x, mask = jax.device_put((x, mask), NamedSharding(mesh, P("data")))

    def local(x_block, mask_block):
        weights = mask_block.astype(x_block.dtype)[:, None]
        total = jax.lax.psum(jnp.sum(x_block * weights, axis=0), "data")
        count = jax.lax.psum(jnp.sum(weights), "data")
        return total / count

    return jax.jit(jax.shard_map(local, mesh=mesh, in_specs=(P("data"), P("data")), out_specs=P()))(x, mask)
