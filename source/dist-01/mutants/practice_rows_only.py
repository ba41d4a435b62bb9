# replaces: practice-solution
# fails: practice-test
def shard_2d(x, mesh):
    # Splits only the rows; the columns are replicated over the second mesh axis.
    return jax.device_put(x, NamedSharding(mesh, P(mesh.axis_names[0])))
