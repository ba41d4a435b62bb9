# replaces: challenge-solution
# fails: challenge-test
def elastic_target(tree_like, mesh, specs):
    """Like abstract_target, with every spec entry that does not divide its dimension on `mesh` set to None."""
    # Checks every axis of a tuple on its own ("2 divides it, 2 divides it"), not their product:
    # the same on a 3 x 2 mesh, where the sizes have no common factor, and wrong on 2 x 2 x 2.
    def fits(entry, size):
        names = entry if isinstance(entry, tuple) else (entry,)
        return all(size % mesh.shape[name] == 0 for name in names)

    def leaf_target(leaf, spec):
        entries = list(spec) + [None] * (len(leaf.shape) - len(spec))
        fitted = [entry if entry is not None and fits(entry, size) else None
                  for entry, size in zip(entries, leaf.shape)]
        return jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=NamedSharding(mesh, P(*fitted)))

    return jax.tree.map(leaf_target, tree_like, specs)
