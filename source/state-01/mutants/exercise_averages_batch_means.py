# replaces: exercise-solution
# fails: exercise-test
def welford_update(state, batch):
    # Averages the old mean and the batch mean: every batch weighs the same, whatever its size.
    n_b = batch.shape[0]
    batch_mean = jnp.mean(batch, axis=0)
    batch_m2 = jnp.sum((batch - batch_mean) ** 2, axis=0)
    count = state.count + n_b
    delta = batch_mean - state.mean
    mean = jnp.where(state.count == 0, batch_mean, (state.mean + batch_mean) / 2)
    m2 = state.m2 + batch_m2 + delta ** 2 * (state.count * (n_b / count))
    return RunningStats(count=count, mean=mean, m2=m2)
