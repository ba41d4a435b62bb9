# replaces: exercise-solution
# fails: exercise-test
def welford_update(state, batch):
    # Weighs each batch mean by 1 / (number of batches): right only when all batches have one size.
    n_b = batch.shape[0]
    batch_mean = jnp.mean(batch, axis=0)
    batch_m2 = jnp.sum((batch - batch_mean) ** 2, axis=0)
    count = state.count + n_b
    batches_before = jnp.where(state.count == 0, 0, jnp.maximum(state.count // n_b, 1))
    delta = batch_mean - state.mean
    mean = state.mean + delta / (batches_before + 1)
    m2 = state.m2 + batch_m2 + delta ** 2 * (state.count * (n_b / count))
    return RunningStats(count=count, mean=mean, m2=m2)
