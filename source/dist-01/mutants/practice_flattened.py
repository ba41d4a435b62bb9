# replaces: practice-solution
# fails: practice-test
def shard_2d(x, mesh):
    # Puts both mesh axes on the rows, P(("x", "y")), leaving the columns whole.
    return jax.device_put(x, NamedSharding(mesh, P(tuple(mesh.axis_names))))
