# replaces: challenge-solution
# fails: challenge-test
# An epsilon inside the square root: the gradient at 0 is finite, but the norm of zeros is 1e-6,
# not 0, and there is no custom rule.
def safe_norm(x):
    """sqrt(sum(x ** 2)) over all entries of x; a scalar."""
    return jnp.sqrt(jnp.sum(x ** 2) + 1e-12)
