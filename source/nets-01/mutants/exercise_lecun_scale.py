# replaces: exercise-solution
# fails: exercise-test
def init_mlp(key, sizes):
    # Variance 1 / fan_in: right without ReLUs, but each ReLU layer halves the mean square.
    layer_keys = jax.random.split(key, len(sizes) - 1)
    return [{"w": jax.random.normal(layer_key, (n_in, n_out)) / jnp.sqrt(n_in), "b": jnp.zeros((n_out,))}
            for layer_key, n_in, n_out in zip(layer_keys, sizes[:-1], sizes[1:])]
