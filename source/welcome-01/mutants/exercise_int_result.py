# replaces: exercise-solution
# fails: exercise-test
def arange_sum(n):
    # Leaves out dtype=, so the array is int32, and returns an int instead of a float.
    return int(jnp.arange(n).sum())
