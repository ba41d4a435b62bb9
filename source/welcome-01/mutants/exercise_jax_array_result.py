# replaces: exercise-solution
# fails: exercise-test
def arange_sum(n):
    # Right number, but returns a zero-dimensional JAX float32 array, not a Python float.
    return jnp.arange(n, dtype=jnp.float32).sum()
