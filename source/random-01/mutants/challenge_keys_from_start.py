# replaces: challenge-solution
# fails: challenge-test
def step_key(base, t):
    return jax.random.fold_in(base, t)


def step_noise(base, start, num_steps, shape):
    # Splits the key of the first step into one key per step: the noise of a step depends on where the run started.
    keys = jax.random.split(step_key(base, start), num_steps)
    return jax.vmap(lambda k: jax.random.normal(k, shape))(keys)
