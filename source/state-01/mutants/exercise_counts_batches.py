# replaces: exercise-solution
# fails: exercise-test
def welford_update(state, batch):
    # Adds 1 to the count per batch, as if every batch were a single value.
    n_b = batch.shape[0]
    batch_mean = jnp.mean(batch, axis=0)
    batch_m2 = jnp.sum((batch - batch_mean) ** 2, axis=0)
    count = state.count + 1
    delta = batch_mean - state.mean
    mean = state.mean + delta / count
    m2 = state.m2 + batch_m2 + delta ** 2 * (state.count * (1 / count))
    return RunningStats(count=count, mean=mean, m2=m2)
