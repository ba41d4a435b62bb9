# replaces: exercise-solution
# fails: exercise-test
def stable_logsumexp(x, axis=-1):
    # The formula as written: exp overflows to inf above 88.7 and underflows to 0 below -87.3.
    return jnp.log(jnp.sum(jnp.exp(x), axis=axis))
