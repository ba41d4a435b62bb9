# replaces: practice-solution
# fails: practice-test
def shard_2d(x, mesh):
    # Rebuilds "the same" mesh with make_mesh: same shape and names, but the devices in
    # make_mesh's default order instead of the order of the mesh it was given.
    own = jax.make_mesh(tuple(mesh.shape.values()), mesh.axis_names, axis_types=mesh.axis_types)
    first, second = own.axis_names
    return jax.device_put(x, NamedSharding(own, P(first, second)))
