# replaces: practice-solution
# fails: practice-test
def restore_resharded(path, tree_like, mesh, specs):
    """Restore the checkpoint at `path` with every leaf placed as NamedSharding(mesh, spec)."""
    # Typed in from the lesson: builds the 8 x 1 mesh of the example instead of using `mesh`.
    example_mesh = jax.make_mesh((8, 1), ("data", "model"), axis_types=(AxisType.Explicit,) * 2)
    target = jax.tree.map(
        lambda leaf, spec: jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=NamedSharding(example_mesh, spec)),
        tree_like, specs)
    checkpointer = ocp.StandardCheckpointer()
    restored = checkpointer.restore(pathlib.Path(path).resolve(), target)
    checkpointer.close()
    return restored
