# replaces: practice-solution
# fails: practice-test
def init_layers(key, sizes):
    # Draws from `key`, then splits the same key for the next layer: every key is used twice.
    layers = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        weights = jax.random.normal(key, (n_in, n_out)) / jnp.sqrt(n_in)
        layers.append((weights, jnp.zeros((n_out,))))
        key, _ = jax.random.split(key)
    return layers
