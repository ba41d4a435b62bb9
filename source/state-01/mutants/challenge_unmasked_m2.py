# replaces: challenge-solution
# fails: challenge-test
def masked_stats_step(state, batch):
    # Masks the mean but not the batch M2: every padding row adds (0 - batch_mean) ** 2.
    values, mask = batch
    weights = mask.astype(values.dtype)[:, None]
    n_b = jnp.sum(mask.astype(jnp.int32))
    batch_mean = jnp.sum(values * weights, axis=0) / jnp.maximum(n_b, 1)
    batch_m2 = jnp.sum((values * weights - batch_mean) ** 2, axis=0)
    count = state.count + n_b
    safe_count = jnp.maximum(count, 1)
    delta = batch_mean - state.mean
    mean = state.mean + delta * (n_b / safe_count)
    m2 = state.m2 + batch_m2 + delta ** 2 * (state.count * (n_b / safe_count))
    return RunningStats(count=count, mean=mean, m2=m2), {"mean": mean, "variance": m2 / safe_count}
