# replaces: challenge-solution
# fails: challenge-test
def restore_latest(directory, template):
    # Assumes there is always a checkpoint: a fresh folder makes restore raise instead of starting over.
    manager = ocp.CheckpointManager(pathlib.Path(directory).resolve())
    step = manager.latest_step()
    state = manager.restore(step, args=ocp.args.StandardRestore(jax.tree.map(ocp.utils.to_shape_dtype_struct, template)))
    manager.close()
    return step, state
