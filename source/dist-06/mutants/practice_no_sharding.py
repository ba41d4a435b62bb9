# replaces: practice-solution
# fails: practice-test
def restore_resharded(path, tree_like, mesh, specs):
    """Restore the checkpoint at `path` with every leaf placed as NamedSharding(mesh, spec)."""
    # The target has shapes and dtypes but no sharding: orbax 0.12.8 restores the saved layout.
    target = jax.tree.map(lambda leaf: jax.ShapeDtypeStruct(leaf.shape, leaf.dtype), tree_like)
    checkpointer = ocp.StandardCheckpointer()
    restored = checkpointer.restore(pathlib.Path(path).resolve(), target)
    checkpointer.close()
    return restored
