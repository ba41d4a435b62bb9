# replaces: practice-solution
# fails: practice-test
def restore_resharded(path, tree_like, mesh, specs):
    """Restore the checkpoint at `path` with every leaf placed as NamedSharding(mesh, spec)."""
    # No target at all: the saved layout on the saved devices, and a plain dict.
    checkpointer = ocp.StandardCheckpointer()
    restored = checkpointer.restore(pathlib.Path(path).resolve())
    checkpointer.close()
    return restored
