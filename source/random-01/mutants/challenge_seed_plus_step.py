# replaces: challenge-solution
# fails: challenge-test
def step_key(base, t):
    # Adds the step to the key's bits, like key(seed + step): runs with neighbouring seeds collide.
    data = jax.random.key_data(base)
    return jax.random.wrap_key_data(data.at[-1].add(jnp.asarray(t).astype(jnp.uint32)))


def step_noise(base, start, num_steps, shape):
    steps = start + jnp.arange(num_steps)
    return jax.vmap(lambda t: jax.random.normal(step_key(base, t), shape))(steps)
