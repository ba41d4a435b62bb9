# replaces: exercise-solution
# fails: exercise-test
def stable_logsumexp(x, axis=-1):
    # One maximum for the whole array: a slice far below it (a row at -1000 next to one at 1000)
    # underflows to log(0) = -inf.
    m = jnp.max(x)
    return m + jnp.log(jnp.sum(jnp.exp(x - m), axis=axis))
