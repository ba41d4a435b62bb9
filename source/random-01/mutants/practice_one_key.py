# replaces: practice-solution
# fails: practice-test
def init_layers(key, sizes):
    # Draws every layer from the same key: layers share their leading weights (KeyReuseError under the checker).
    layers = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        weights = jax.random.normal(key, (n_in, n_out)) / jnp.sqrt(n_in)
        layers.append((weights, jnp.zeros((n_out,))))
    return layers
