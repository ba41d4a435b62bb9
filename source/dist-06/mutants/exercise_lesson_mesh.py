# replaces: exercise-solution
# fails: exercise-test
def abstract_target(tree, mesh, specs):
    """A ShapeDtypeStruct per leaf of `tree`: its shape and dtype, sharded NamedSharding(mesh, spec)."""
    # Typed in from the lesson: the 8 x 1 mesh of Step 2, whatever mesh is passed in.
    return jax.tree.map(lambda leaf, spec: jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=NamedSharding(mesh_8x1, spec)),
                        tree, specs)
