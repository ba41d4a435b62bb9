# replaces: challenge-solution
# fails: challenge-test
def train_preemptible(state, batches, step_fn, directory, every):
    # Ignores the checkpoints already in the folder: a second call repeats every step from the start.
    notice = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: notice.append(signum))
    manager = ocp.CheckpointManager(pathlib.Path(directory).resolve())
    try:
        while int(state.step) < len(batches):
            if notice:
                break
            state, _ = step_fn(state, batches[int(state.step)])
            if int(state.step) % every == 0 and int(state.step) not in manager.all_steps():
                manager.save(int(state.step), args=ocp.args.StandardSave(state))
        if int(state.step) not in manager.all_steps():
            manager.save(int(state.step), args=ocp.args.StandardSave(state), force=True)
        manager.wait_until_finished()
    finally:
        manager.close()
        signal.signal(signal.SIGTERM, previous)
    return state, "preempted" if notice else "completed"
