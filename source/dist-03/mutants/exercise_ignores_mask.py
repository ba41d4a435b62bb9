# replaces: exercise-solution
# fails: exercise-test
def masked_global_mean(x, mask, mesh):
    """The mean of the rows of x (n, features) where mask (n,) is True, computed with jax.shard_map
    on mesh, the rows split over all mesh axes. Returns a (features,) array, the same on every device."""
    # Never looks at the mask: the padding rows are averaged in.
    axes = tuple(mesh.axis_names)
    x = jax.device_put(x, NamedSharding(mesh, P(axes)))

    def local(x_block):
        return jax.lax.pmean(jnp.mean(x_block, axis=0), axes)

    return jax.jit(jax.shard_map(local, mesh=mesh, in_specs=P(axes), out_specs=P()))(x)
