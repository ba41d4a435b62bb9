# replaces: challenge-solution
# fails: challenge-test
def train_with_resume(step_fn, state, num_steps, save_every, crash_at, directory):
    # Restores everything, then takes the key from the fresh state "because it comes from the seed":
    # the noise of the first steps is drawn again.
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
    final, _ = run_until(step_fn, resumed._replace(key_data=state.key_data), num_steps)
    return final
