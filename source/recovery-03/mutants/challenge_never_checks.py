# replaces: challenge-solution
# fails: challenge-test
def train_preemptible(state, batches, step_fn, directory, every):
    # Records the notice but never reads it: the run trains on until the end (on a real VM, until SIGKILL).
    notice = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: notice.append(signum))
    manager = ocp.CheckpointManager(pathlib.Path(directory).resolve())
    try:
        latest = manager.latest_step()
        if latest is not None:
            abstract = jax.tree.map(ocp.utils.to_shape_dtype_struct, state)
            state = manager.restore(latest, args=ocp.args.StandardRestore(abstract))
        while int(state.step) < len(batches):
            state, _ = step_fn(state, batches[int(state.step)])
            if int(state.step) % every == 0:
                manager.save(int(state.step), args=ocp.args.StandardSave(state))
        if int(state.step) not in manager.all_steps():
            manager.save(int(state.step), args=ocp.args.StandardSave(state), force=True)
        manager.wait_until_finished()
    finally:
        manager.close()
        signal.signal(signal.SIGTERM, previous)
    return state, "preempted" if notice else "completed"
