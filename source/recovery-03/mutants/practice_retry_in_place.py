# replaces: practice-solution
# fails: practice-test
def run_with_rollback(state, batches, step_fn, every, max_loss, factor=0.5, max_rollbacks=3):
    # Lowers the rate but does not go back: it retries the failed step from the state that produced the spike.
    rollback_steps = []
    while int(state.step) < len(batches):
        new_state, metrics = step_fn(state, batches[int(state.step)])
        loss = float(metrics["loss"])
        if not loss <= max_loss:
            if len(rollback_steps) == max_rollbacks:
                raise RuntimeError(f"loss {loss} at step {int(state.step)} after {max_rollbacks} rollbacks")
            rollback_steps.append(int(state.step))
            state = with_learning_rate(state, state.opt_state.hyperparams["learning_rate"] * factor)
            continue
        state = new_state
    return state, rollback_steps
