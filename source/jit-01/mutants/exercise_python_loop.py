# replaces: exercise-solution
# fails: exercise-test
def masked_sum(x, threshold):
    # A Python `if` on each traced entry: TracerBoolConversionError under jax.jit and jax.vmap.
    total = jnp.zeros((), dtype=x.dtype)
    for value in x.ravel():
        if value > threshold:
            total = total + value
    return total
