# replaces: exercise-solution
# fails: exercise-test
def init_mlp(key, sizes):
    # Stores W as (fan_out, fan_in), the PyTorch layout: x @ W fails for any layer whose sizes differ.
    layer_keys = jax.random.split(key, len(sizes) - 1)
    return [{"w": jax.random.normal(layer_key, (n_out, n_in)) * jnp.sqrt(2.0 / n_in), "b": jnp.zeros((n_out,))}
            for layer_key, n_in, n_out in zip(layer_keys, sizes[:-1], sizes[1:])]
