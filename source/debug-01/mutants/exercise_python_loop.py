# replaces: exercise-solution
# fails: exercise-test
def first_bad_step(losses):
    # A Python loop with an `if` on array values: right eagerly, but fails under jax.jit and jax.vmap.
    for i in range(losses.shape[0]):
        if not jnp.isfinite(losses[i]):
            return jnp.asarray(i)
    return jnp.asarray(-1)
