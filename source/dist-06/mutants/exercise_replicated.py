# replaces: exercise-solution
# fails: exercise-test
def abstract_target(tree, mesh, specs):
    """A ShapeDtypeStruct per leaf of `tree`: its shape and dtype, sharded NamedSharding(mesh, spec)."""
    # "Safe": every leaf replicated on the new mesh. Right values, every device holds everything.
    return jax.tree.map(lambda leaf, spec: jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=NamedSharding(mesh, P())),
                        tree, specs)
