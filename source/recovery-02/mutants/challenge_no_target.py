# replaces: challenge-solution
# fails: challenge-test
def train_with_resume(step_fn, state, num_steps, save_every, crash_at, directory):
    # Restores without an abstract target: a dict comes back, and step_fn cannot read state.step from it.
    directory = pathlib.Path(directory).resolve()
    options = ocp.CheckpointManagerOptions(save_interval_steps=save_every)
    manager = ocp.CheckpointManager(directory, options=options)
    run_until(step_fn, state, crash_at, manager)
    manager.wait_until_finished()
    manager.close()
    manager = ocp.CheckpointManager(directory, options=options)
    resumed = manager.restore(manager.latest_step())
    manager.close()
    final, _ = run_until(step_fn, resumed, num_steps)
    return final
