# replaces: challenge-solution
# fails: challenge-test
def elastic_target(tree_like, mesh, specs):
    """Like abstract_target, with every spec entry that does not divide its dimension on `mesh` set to None."""
    # Asks whether the dimension divides by the number of devices in the mesh, not by the size of
    # the axes that split it: drops entries that would have fitted.
    def leaf_target(leaf, spec):
        entries = list(spec) + [None] * (len(leaf.shape) - len(spec))
        fitted = [None if entry is None or size % mesh.size else entry for entry, size in zip(entries, leaf.shape)]
        return jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=NamedSharding(mesh, P(*fitted)))

    return jax.tree.map(leaf_target, tree_like, specs)
