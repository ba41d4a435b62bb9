# replaces: challenge-solution
# fails: challenge-test
def masked_stats_step(state, batch):
    # Uses the padded size B as the batch count and averages over all rows, padding included.
    values, mask = batch
    n_b = values.shape[0]
    batch_mean = jnp.mean(values, axis=0)
    batch_m2 = jnp.sum((values - batch_mean) ** 2, axis=0)
    count = state.count + n_b
    delta = batch_mean - state.mean
    mean = state.mean + delta * (n_b / count)
    m2 = state.m2 + batch_m2 + delta ** 2 * (state.count * (n_b / count))
    return RunningStats(count=count, mean=mean, m2=m2), {"mean": mean, "variance": m2 / jnp.maximum(count, 1)}
