# replaces: practice-sample-solution
# fails: practice-sample-test
class NoiseState(NamedTuple):
    key: jax.Array
    step: jax.Array


def sample_step(state, batch):
    # Hands the old key back: every step splits the same key and draws the same noise.
    next_key, noise_key = jax.random.split(state.key)
    noise = jax.random.normal(noise_key, batch.shape, batch.dtype)
    return NoiseState(key=state.key, step=state.step + 1), batch + noise
