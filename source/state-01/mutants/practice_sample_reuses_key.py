# replaces: practice-sample-solution
# fails: practice-sample-test
class NoiseState(NamedTuple):
    key: jax.Array
    step: jax.Array


def sample_step(state, batch):
    # Draws with state.key itself and then also splits it: the same key is consumed twice.
    noise = jax.random.normal(state.key, batch.shape, batch.dtype)
    next_key, _ = jax.random.split(state.key)
    return NoiseState(key=next_key, step=state.step + 1), batch + noise
