# replaces: challenge-solution
# fails: challenge-test
def elastic_target(tree_like, mesh, specs):
    """Like abstract_target, with every spec entry that does not divide its dimension on `mesh` set to None."""
    # Copied from the lesson's repair: drop the first mesh axis ("data") everywhere, whether it
    # divides or not. Right on the lesson's 3 x 2 mesh, wrong where the first axis fits.
    first = mesh.axis_names[0]

    def leaf_target(leaf, spec):
        fitted = [None if entry == first else entry for entry in spec]
        return jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=NamedSharding(mesh, P(*fitted)))

    return jax.tree.map(leaf_target, tree_like, specs)
