# replaces: exercise-solution
# fails: exercise-test
def welford_update(state, batch):
    # One pass with sums: rebuild sum(x^2) from the state, add the batch's, subtract count * mean^2.
    # Exact in real numbers, and for small integers in float32; with a large offset it cancels.
    n_b = batch.shape[0]
    count = state.count + n_b
    total = state.mean * state.count + jnp.sum(batch, axis=0)
    sum_of_squares = state.m2 + state.count * state.mean ** 2 + jnp.sum(batch ** 2, axis=0)
    mean = total / count
    m2 = sum_of_squares - count * mean ** 2
    return RunningStats(count=count, mean=mean, m2=m2)
