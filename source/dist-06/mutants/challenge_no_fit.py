# replaces: challenge-solution
# fails: challenge-test
def elastic_target(tree_like, mesh, specs):
    """Like abstract_target, with every spec entry that does not divide its dimension on `mesh` set to None."""
    # The specs as written, unfitted: the blocks cannot be formed where a dimension does not divide.
    return jax.tree.map(
        lambda leaf, spec: jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=NamedSharding(mesh, spec)),
        tree_like, specs)
