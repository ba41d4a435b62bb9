# replaces: exercise-solution
# fails: exercise-test
def init_mlp(key, sizes):
    # Draws every layer from the same key instead of a key per layer.
    return [{"w": jax.random.normal(key, (n_in, n_out)) * jnp.sqrt(2.0 / n_in), "b": jnp.zeros((n_out,))}
            for n_in, n_out in zip(sizes[:-1], sizes[1:])]
