# replaces: practice-solution
# fails: practice-test
def shard_2d(x, mesh):
    # Rows along the SECOND mesh axis and columns along the first: P("y", "x").
    first, second = mesh.axis_names
    return jax.device_put(x, NamedSharding(mesh, P(second, first)))
