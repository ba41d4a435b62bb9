# replaces: challenge-solution
# fails: challenge-test
# No rule of its own: jax.grad runs the chain rule through sqrt, and at x = 0 it multiplies the
# infinite slope 1 / (2 sqrt(0)) by 2x = 0: the gradient is nan.
def safe_norm(x):
    """sqrt(sum(x ** 2)) over all entries of x; a scalar."""
    return jnp.sqrt(jnp.sum(x ** 2))
