# replaces: exercise-solution
# fails: exercise-test
def welford_update(state, batch):
    # Adds the two M2s but forgets delta**2 * n_a * n_b / n: the spread BETWEEN the batches is lost.
    n_b = batch.shape[0]
    batch_mean = jnp.mean(batch, axis=0)
    batch_m2 = jnp.sum((batch - batch_mean) ** 2, axis=0)
    count = state.count + n_b
    delta = batch_mean - state.mean
    mean = state.mean + delta * (n_b / count)
    m2 = state.m2 + batch_m2
    return RunningStats(count=count, mean=mean, m2=m2)
