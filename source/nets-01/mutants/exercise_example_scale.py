# replaces: exercise-solution
# fails: exercise-test
def init_mlp(key, sizes):
    # Types the first layer of the example into the formula: sqrt(2 / 64) for every layer of every network.
    layer_keys = jax.random.split(key, len(sizes) - 1)
    return [{"w": jax.random.normal(layer_key, (n_in, n_out)) * jnp.sqrt(2.0 / 64), "b": jnp.zeros((n_out,))}
            for layer_key, n_in, n_out in zip(layer_keys, sizes[:-1], sizes[1:])]
