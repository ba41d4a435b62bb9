# replaces: practice-solution
# fails: practice-test
def init_layers(key, sizes):
    # A fresh seed per layer, ignoring `key`: no reuse, but every key gives the same network.
    layers = []
    for index, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:])):
        weights = jax.random.normal(jax.random.key(index), (n_in, n_out)) / jnp.sqrt(n_in)
        layers.append((weights, jnp.zeros((n_out,))))
    return layers
