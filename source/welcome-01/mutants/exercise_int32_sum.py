# replaces: exercise-solution
# fails: exercise-test
def arange_sum(n):
    # Leaves out the dtype: jnp.arange(n) holds int32, and a large sum wraps around.
    return float(jnp.arange(n).sum())
