# replaces: practice-solution
# fails: practice-test
def init_layers(key, sizes):
    # Forgets the 1 / sqrt(n_in) scale: standard-normal weights, far too large for wide layers.
    layer_keys = jax.random.split(key, len(sizes) - 1)
    return [(jax.random.normal(k, (n_in, n_out)), jnp.zeros((n_out,)))
            for k, n_in, n_out in zip(layer_keys, sizes[:-1], sizes[1:])]
