# replaces: challenge-solution
# fails: challenge-test
def train_with_resume(step_fn, state, num_steps, save_every, crash_at, directory):
    # After the restore, runs num_steps - crash_at more steps, as if it resumed at the crash: the steps
    # lost since the last checkpoint are never made up, and the run ends short.
    directory = pathlib.Path(directory).resolve()
    options = ocp.CheckpointManagerOptions(save_interval_steps=save_every)
    manager = ocp.CheckpointManager(directory, options=options)
    run_until(step_fn, state, crash_at, manager)
    manager.wait_until_finished()
    manager.close()
    manager = ocp.CheckpointManager(directory, options=options)
    abstract = jax.tree.map(ocp.utils.to_shape_dtype_struct, state)
    resumed = manager.restore(manager.latest_step(), args=ocp.args.StandardRestore(abstract))
    manager.close()
    for _ in range(num_steps - crash_at):
        resumed, _ = step_fn(resumed)
    return resumed
