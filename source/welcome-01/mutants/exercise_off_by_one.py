# replaces: exercise-solution
# fails: exercise-test
def arange_sum(n):
    # Counts one element too many: 0, 1, ..., n instead of 0, 1, ..., n - 1.
    x = jnp.arange(n + 1, dtype=jnp.float32)
    return float(x.sum())
