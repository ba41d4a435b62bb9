# replaces: exercise-solution
# fails: exercise-test
def masked_global_mean(x, mask, mesh):
    """The mean of the rows of x (n, features) where mask (n,) is True, computed with jax.shard_map
    on mesh, the rows split over all mesh axes. Returns a (features,) array, the same on every device."""
    # Averages the devices' local means: wrong when the devices hold different numbers of real rows,
    # and nan as soon as one device holds none.
    axes = tuple(mesh.axis_names)
    x, mask = jax.device_put((x, mask), NamedSharding(mesh, P(axes)))

    def local(x_block, mask_block):
        weights = mask_block.astype(x_block.dtype)[:, None]
        return jax.lax.pmean(jnp.sum(x_block * weights, axis=0) / jnp.sum(weights), axes)

    return jax.jit(jax.shard_map(local, mesh=mesh, in_specs=(P(axes), P(axes)), out_specs=P()))(x, mask)
