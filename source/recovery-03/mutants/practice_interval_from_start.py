# replaces: practice-solution
# fails: practice-test
def run_with_rollback(state, batches, step_fn, every, max_loss, factor=0.5, max_rollbacks=3):
    # Counts the snapshot interval from the step the run started at, not by the step number:
    # a run resumed at step 7 with every=3 keeps snapshots of 10, 13, ... instead of 9, 12, ...
    start, snapshot, rollback_steps = int(state.step), state, []
    while int(state.step) < len(batches):
        new_state, metrics = step_fn(state, batches[int(state.step)])
        loss = float(metrics["loss"])
        if not loss <= max_loss:
            if len(rollback_steps) == max_rollbacks:
                raise RuntimeError(f"loss {loss} at step {int(state.step)} after {max_rollbacks} rollbacks")
            rollback_steps.append(int(state.step))
            state = with_learning_rate(snapshot, state.opt_state.hyperparams["learning_rate"] * factor)
            continue
        if (int(state.step) - start) % every == 0:
            snapshot = state
        state = new_state
    return state, rollback_steps
