# replaces: practice-sample-solution
# fails: practice-sample-test
class NoiseState(NamedTuple):
    key: jax.Array
    step: jax.Array


def sample_step(state, batch):
    # Advances the key but leaves the step counter where it was.
    next_key, noise_key = jax.random.split(state.key)
    noise = jax.random.normal(noise_key, batch.shape, batch.dtype)
    return NoiseState(key=next_key, step=state.step), batch + noise
