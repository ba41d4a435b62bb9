# replaces: practice-solution
# fails: practice-test
def restore_resharded(path, tree_like, mesh, specs):
    """Restore the checkpoint at `path` with every leaf placed as NamedSharding(mesh, spec)."""
    # Restores first, with shapes and dtypes only (orbax 0.12.8 rebuilds the SAVED layout), then
    # moves every leaf where it belongs with device_put. Same arrays in the end while the saved
    # devices exist; a checkpoint from a 16-device machine is refused on eight.
    shapes = jax.tree.map(lambda leaf: jax.ShapeDtypeStruct(leaf.shape, leaf.dtype), tree_like)
    checkpointer = ocp.StandardCheckpointer()
    restored = checkpointer.restore(pathlib.Path(path).resolve(), shapes)
    checkpointer.close()
    return jax.tree.map(lambda leaf, spec: jax.device_put(leaf, NamedSharding(mesh, spec)), restored, specs)
