# replaces: exercise-solution
# fails: exercise-test
def welford_update(state, batch):
    # Right numbers, but the count turns into float32: the state changes dtype, and scan refuses it.
    n_b = float(batch.shape[0])
    batch_mean = jnp.mean(batch, axis=0)
    batch_m2 = jnp.sum((batch - batch_mean) ** 2, axis=0)
    count = state.count.astype(jnp.float32) + n_b
    delta = batch_mean - state.mean
    mean = state.mean + delta * (n_b / count)
    m2 = state.m2 + batch_m2 + delta ** 2 * (state.count * (n_b / count))
    return RunningStats(count=count, mean=mean, m2=m2)
