# replaces: challenge-solution
# fails: challenge-test
def elastic_target(tree_like, mesh, specs):
    """Like abstract_target, with every spec entry that does not divide its dimension on `mesh` set to None."""
    # Replicates the WHOLE leaf as soon as one dimension does not divide: more copies than needed.
    def split_count(entry):
        names = entry if isinstance(entry, tuple) else (entry,)
        return math.prod(mesh.shape[name] for name in names)

    def leaf_target(leaf, spec):
        fits = all(entry is None or size % split_count(entry) == 0 for entry, size in zip(spec, leaf.shape))
        return jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=NamedSharding(mesh, spec if fits else P()))

    return jax.tree.map(leaf_target, tree_like, specs)
