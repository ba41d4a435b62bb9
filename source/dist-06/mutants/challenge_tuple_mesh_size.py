# replaces: challenge-solution
# fails: challenge-test
def elastic_target(tree_like, mesh, specs):
    """Like abstract_target, with every spec entry that does not divide its dimension on `mesh` set to None."""
    # A single axis is checked by its size, a tuple of axes by the number of devices in the mesh:
    # the same thing when the tuple names every axis of the mesh, and too strict when it does not.
    def split_count(entry):
        return mesh.size if isinstance(entry, tuple) else mesh.shape[entry]

    def leaf_target(leaf, spec):
        entries = list(spec) + [None] * (len(leaf.shape) - len(spec))
        fitted = [None if entry is None or size % split_count(entry) else entry
                  for entry, size in zip(entries, leaf.shape)]
        return jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=NamedSharding(mesh, P(*fitted)))

    return jax.tree.map(leaf_target, tree_like, specs)
