# replaces: stationary-solution
# fails: stationary-test
def is_stationary(function, x, tol=1e-6):
    # A strict < : a slope exactly equal to tol counts as moving, although the prompt says "at most tol".
    return bool(jnp.abs(jax.grad(function)(x)) < tol)
