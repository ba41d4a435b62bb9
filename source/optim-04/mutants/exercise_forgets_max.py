# replaces: exercise-solution
# fails: exercise-test
def stable_logsumexp(x, axis=-1):
    # Shifts by the maximum but never adds it back: the result is off by m.
    m = jnp.max(x, axis=axis, keepdims=True)
    return jnp.log(jnp.sum(jnp.exp(x - m), axis=axis))
