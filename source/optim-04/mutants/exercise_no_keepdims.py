# replaces: exercise-solution
# fails: exercise-test
def stable_logsumexp(x, axis=-1):
    # The maximum without keepdims: x - m broadcasts m along the wrong axis (or fails to broadcast)
    # unless axis is the leading one; right only for vectors and axis=0.
    m = jnp.max(x, axis=axis)
    return m + jnp.log(jnp.sum(jnp.exp(x - m), axis=axis))
