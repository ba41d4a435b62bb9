# replaces: exercise-solution
# fails: exercise-test
def abstract_target(tree, mesh, specs):
    """A ShapeDtypeStruct per leaf of `tree`: its shape and dtype, sharded NamedSharding(mesh, spec)."""
    # Writes float32 for every leaf: orbax converts silently, so an int32 step comes back a float.
    return jax.tree.map(lambda leaf, spec: jax.ShapeDtypeStruct(leaf.shape, jnp.float32, sharding=NamedSharding(mesh, spec)),
                        tree, specs)
