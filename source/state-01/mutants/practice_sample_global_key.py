# replaces: practice-sample-solution
# fails: practice-sample-test
class NoiseState(NamedTuple):
    key: jax.Array
    step: jax.Array


sampler_key = jax.random.key(0)


def sample_step(state, batch):
    # Ignores the key in the state and splits a global key that never changes.
    next_key, noise_key = jax.random.split(sampler_key)
    noise = jax.random.normal(noise_key, batch.shape, batch.dtype)
    return NoiseState(key=next_key, step=state.step + 1), batch + noise
