# replaces: exercise-solution
# fails: exercise-test
def init_mlp(key, sizes):
    # Scales by the layer's fan_out instead of its fan_in.
    layer_keys = jax.random.split(key, len(sizes) - 1)
    return [{"w": jax.random.normal(layer_key, (n_in, n_out)) * jnp.sqrt(2.0 / n_out), "b": jnp.zeros((n_out,))}
            for layer_key, n_in, n_out in zip(layer_keys, sizes[:-1], sizes[1:])]
