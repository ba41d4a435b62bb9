# replaces: practice-solution
# fails: practice-test
def init_layers(key, sizes):
    # Weights of shape (n_out, n_in): transposed with respect to the rule.
    layer_keys = jax.random.split(key, len(sizes) - 1)
    return [(jax.random.normal(k, (n_out, n_in)) / jnp.sqrt(n_in), jnp.zeros((n_out,)))
            for k, n_in, n_out in zip(layer_keys, sizes[:-1], sizes[1:])]
