# replaces: practice-solution
# fails: practice-test
def restore_resharded(path, tree_like, mesh, specs):
    """Restore the checkpoint at `path` with every leaf placed as NamedSharding(mesh, spec)."""
    # Restores replicated: P() for every leaf on the new mesh. Every value is right; every device
    # holds the whole state.
    target = jax.tree.map(lambda leaf: jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=NamedSharding(mesh, P())),
                          tree_like)
    checkpointer = ocp.StandardCheckpointer()
    restored = checkpointer.restore(pathlib.Path(path).resolve(), target)
    checkpointer.close()
    return restored
