# replaces: practice-solution
# fails: practice-test
import math


def run_with_rollback(state, batches, step_fn, every, max_loss, factor=0.5, max_rollbacks=3):
    # Rolls back on nan and inf only, ignoring max_loss: spikes get into the snapshots (Experiment 3).
    snapshot, rollback_steps = state, []
    while int(state.step) < len(batches):
        new_state, metrics = step_fn(state, batches[int(state.step)])
        loss = float(metrics["loss"])
        if not math.isfinite(loss):
            if len(rollback_steps) == max_rollbacks:
                raise RuntimeError(f"loss {loss} at step {int(state.step)} after {max_rollbacks} rollbacks")
            rollback_steps.append(int(state.step))
            state = with_learning_rate(snapshot, state.opt_state.hyperparams["learning_rate"] * factor)
            continue
        if int(state.step) % every == 0:
            snapshot = state
        state = new_state
    return state, rollback_steps
