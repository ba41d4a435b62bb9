# replaces: practice-sample-solution
# fails: practice-sample-test
class NoiseState(NamedTuple):
    key: jax.Array
    step: jax.Array


def sample_step(state, batch):
    # Draws the noise in the default dtype (float32), not the batch's.
    next_key, noise_key = jax.random.split(state.key)
    noise = jax.random.normal(noise_key, batch.shape)
    return NoiseState(key=next_key, step=state.step + 1), batch + noise
