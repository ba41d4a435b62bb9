# replaces: exercise-solution
# fails: exercise-test
def abstract_target(tree, mesh, specs):
    """A ShapeDtypeStruct per leaf of `tree`: its shape and dtype, sharded NamedSharding(mesh, spec)."""
    # Keeps the sharding a leaf already has (the old mesh's), and only fills in the new one where
    # there is none: right for eval_shape outputs and NumPy leaves, wrong for arrays from another mesh.
    def leaf_target(leaf, spec):
        old = getattr(leaf, "sharding", None)
        return jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=old if old is not None else NamedSharding(mesh, spec))

    return jax.tree.map(leaf_target, tree, specs)
