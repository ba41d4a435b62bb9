# replaces: exercise-solution
# fails: exercise-test
def init_mlp(key, sizes):
    # Forgets the He scale: plain N(0, 1) weights, so activations grow about sqrt(fan_in / 2) per layer.
    layer_keys = jax.random.split(key, len(sizes) - 1)
    return [{"w": jax.random.normal(layer_key, (n_in, n_out)), "b": jnp.zeros((n_out,))}
            for layer_key, n_in, n_out in zip(layer_keys, sizes[:-1], sizes[1:])]
