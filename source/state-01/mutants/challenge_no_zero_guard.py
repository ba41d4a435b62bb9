# replaces: challenge-solution
# fails: challenge-test
def masked_stats_step(state, batch):
    # Right for non-empty batches, but divides 0 / 0 when nothing has been counted: NaN forever after.
    values, mask = batch
    weights = mask.astype(values.dtype)[:, None]
    n_b = jnp.sum(mask.astype(jnp.int32))
    batch_mean = jnp.sum(values * weights, axis=0) / n_b
    batch_m2 = jnp.sum(weights * (values - batch_mean) ** 2, axis=0)
    count = state.count + n_b
    delta = batch_mean - state.mean
    mean = state.mean + delta * (n_b / count)
    m2 = state.m2 + batch_m2 + delta ** 2 * (state.count * (n_b / count))
    return RunningStats(count=count, mean=mean, m2=m2), {"mean": mean, "variance": m2 / count}
