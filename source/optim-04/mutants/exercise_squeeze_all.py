# replaces: exercise-solution
# fails: exercise-test
def stable_logsumexp(x, axis=-1):
    # squeeze() with no axis also removes the other size-1 axes of the maximum: (3, 1, 1) -> (3,),
    # which then broadcasts against the (3, 1) sum to a (3, 3) result.
    m = jnp.max(x, axis=axis, keepdims=True)
    return jnp.squeeze(m) + jnp.log(jnp.sum(jnp.exp(x - m), axis=axis))
