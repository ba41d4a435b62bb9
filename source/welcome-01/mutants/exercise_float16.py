# replaces: exercise-solution
# fails: exercise-test
def arange_sum(n):
    # float16 holds whole numbers exactly only up to 2048, so long sums are rounded (or overflow).
    x = jnp.arange(n, dtype=jnp.float16)
    return float(x.sum())
