# replaces: exercise-solution
# fails: exercise-test
def abstract_target(tree, mesh, specs):
    """A ShapeDtypeStruct per leaf of `tree`: its shape and dtype, sharded NamedSharding(mesh, spec)."""
    # Shapes and dtypes only, no sharding: orbax 0.12.8 then restores the SAVED layout.
    return jax.tree.map(lambda leaf, spec: jax.ShapeDtypeStruct(leaf.shape, leaf.dtype), tree, specs)
