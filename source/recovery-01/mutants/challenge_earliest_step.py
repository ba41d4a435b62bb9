# replaces: challenge-solution
# fails: challenge-test
def restore_latest(directory, template):
    # Resumes from the OLDEST checkpoint it keeps, throwing away the later steps.
    manager = ocp.CheckpointManager(pathlib.Path(directory).resolve())
    steps = manager.all_steps()
    if not steps:
        manager.close()
        return None, template
    step = min(steps)
    state = manager.restore(step, args=ocp.args.StandardRestore(jax.tree.map(ocp.utils.to_shape_dtype_struct, template)))
    manager.close()
    return step, state
