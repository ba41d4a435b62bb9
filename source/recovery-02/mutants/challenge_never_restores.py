# replaces: challenge-solution
# fails: challenge-test
def train_with_resume(step_fn, state, num_steps, save_every, crash_at, directory):
    # Saves, but never restores: it carries on with the state in memory, which a real crash would have lost.
    directory = pathlib.Path(directory).resolve()
    manager = ocp.CheckpointManager(directory, options=ocp.CheckpointManagerOptions(save_interval_steps=save_every))
    current, _ = run_until(step_fn, state, crash_at, manager)
    manager.wait_until_finished()
    manager.close()
    final, _ = run_until(step_fn, current, num_steps)
    return final
