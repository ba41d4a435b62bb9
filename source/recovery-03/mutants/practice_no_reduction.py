# replaces: practice-solution
# fails: practice-test
def run_with_rollback(state, batches, step_fn, every, max_loss, factor=0.5, max_rollbacks=3):
    # Rolls back but changes nothing: the replay fails again at the same step, until the rollbacks run out.
    snapshot, rollback_steps = state, []
    while int(state.step) < len(batches):
        new_state, metrics = step_fn(state, batches[int(state.step)])
        loss = float(metrics["loss"])
        if not loss <= max_loss:
            if len(rollback_steps) == max_rollbacks:
                raise RuntimeError(f"loss {loss} at step {int(state.step)} after {max_rollbacks} rollbacks")
            rollback_steps.append(int(state.step))
            state = snapshot
            continue
        if int(state.step) % every == 0:
            snapshot = state
        state = new_state
    return state, rollback_steps
