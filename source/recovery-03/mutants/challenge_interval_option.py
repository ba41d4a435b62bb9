# replaces: challenge-solution
# fails: challenge-test
def train_preemptible(state, batches, step_fn, directory, every):
    # Lets the manager decide with save_interval_steps: its save of the stopping point returns False
    # (skipped, no error) whenever that step is not on the interval.
    notice = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: notice.append(signum))
    manager = ocp.CheckpointManager(pathlib.Path(directory).resolve(),
                                    options=ocp.CheckpointManagerOptions(save_interval_steps=every))
    try:
        latest = manager.latest_step()
        if latest is not None:
            abstract = jax.tree.map(ocp.utils.to_shape_dtype_struct, state)
            state = manager.restore(latest, args=ocp.args.StandardRestore(abstract))
        while int(state.step) < len(batches):
            if notice:
                break
            state, _ = step_fn(state, batches[int(state.step)])
            manager.save(int(state.step), args=ocp.args.StandardSave(state))
        manager.save(int(state.step), args=ocp.args.StandardSave(state))
        manager.wait_until_finished()
    finally:
        manager.close()
        signal.signal(signal.SIGTERM, previous)
    return state, "preempted" if notice else "completed"
