# replaces: challenge-solution
# fails: challenge-test
def train_preemptible(state, batches, step_fn, directory, every):
    # Saves from inside the handler, mid-step: it writes the state from before the step in flight, and
    # the loop, seeing the flag, stops without saving the step it has just finished.
    notice = []
    manager = ocp.CheckpointManager(pathlib.Path(directory).resolve())

    def handler(signum, frame):
        if int(state.step) not in manager.all_steps():
            manager.save(int(state.step), args=ocp.args.StandardSave(state), force=True)
        notice.append(signum)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        latest = manager.latest_step()
        if latest is not None:
            abstract = jax.tree.map(ocp.utils.to_shape_dtype_struct, state)
            state = manager.restore(latest, args=ocp.args.StandardRestore(abstract))
        while int(state.step) < len(batches):
            if notice:
                break
            state, _ = step_fn(state, batches[int(state.step)])
            if int(state.step) % every == 0:
                manager.save(int(state.step), args=ocp.args.StandardSave(state))
        if not notice and int(state.step) not in manager.all_steps():
            manager.save(int(state.step), args=ocp.args.StandardSave(state), force=True)
        manager.wait_until_finished()
    finally:
        manager.close()
        signal.signal(signal.SIGTERM, previous)
    return state, "preempted" if notice else "completed"
