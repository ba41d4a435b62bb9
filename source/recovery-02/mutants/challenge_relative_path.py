# replaces: challenge-solution
# fails: challenge-test
def train_with_resume(step_fn, state, num_steps, save_every, crash_at, directory):
    # Hands the folder to orbax as given: a relative path fails, since orbax needs absolute paths.
    options = ocp.CheckpointManagerOptions(save_interval_steps=save_every)
    manager = ocp.CheckpointManager(directory, options=options)
    run_until(step_fn, state, crash_at, manager)
    manager.wait_until_finished()
    manager.close()
    manager = ocp.CheckpointManager(directory, options=options)
    abstract = jax.tree.map(ocp.utils.to_shape_dtype_struct, state)
    resumed = manager.restore(manager.latest_step(), args=ocp.args.StandardRestore(abstract))
    manager.close()
    final, _ = run_until(step_fn, resumed, num_steps)
    return final
