# replaces: practice-solution
# fails: practice-test
def shard_2d(x, mesh):
    # Hard-codes the lesson's axis names; a mesh with other names has no axis "x".
    return jax.device_put(x, NamedSharding(mesh, P("x", "y")))
