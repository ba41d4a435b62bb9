# replaces: challenge-solution
# fails: challenge-test
def step_key(base, t):
    return jax.random.fold_in(base, t)


def step_noise(base, start, num_steps, shape):
    # Numbers the rows 0, 1, ... instead of the steps: a resumed run replays the noise of step 0.
    steps = jnp.arange(num_steps)
    return jax.vmap(lambda t: jax.random.normal(step_key(base, t), shape))(steps)
