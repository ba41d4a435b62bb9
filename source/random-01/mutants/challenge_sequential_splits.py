# replaces: challenge-solution
# fails: challenge-test
def step_key(base, t):
    # A chain of splits instead of fold_in: another key stream, and a traced t cannot drive range().
    key = base
    for _ in range(t):
        key, _ = jax.random.split(key)
    return key


def step_noise(base, start, num_steps, shape):
    steps = start + jnp.arange(num_steps)
    return jax.vmap(lambda t: jax.random.normal(step_key(base, t), shape))(steps)
