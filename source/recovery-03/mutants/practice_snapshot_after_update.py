# replaces: practice-solution
# fails: practice-test
def run_with_rollback(state, batches, step_fn, every, max_loss, factor=0.5, max_rollbacks=3):
    # Snapshots the state an update has just produced: nobody has checked its loss yet.
    snapshot, rollback_steps = state, []
    while int(state.step) < len(batches):
        new_state, metrics = step_fn(state, batches[int(state.step)])
        loss = float(metrics["loss"])
        if not loss <= max_loss:
            if len(rollback_steps) == max_rollbacks:
                raise RuntimeError(f"loss {loss} at step {int(state.step)} after {max_rollbacks} rollbacks")
            rollback_steps.append(int(state.step))
            state = with_learning_rate(snapshot, state.opt_state.hyperparams["learning_rate"] * factor)
            continue
        state = new_state
        if int(state.step) % every == 0:
            snapshot = state
    return state, rollback_steps
