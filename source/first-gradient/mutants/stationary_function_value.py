# replaces: stationary-solution
# fails: stationary-test
def is_stationary(function, x, tol=1e-6):
    # Tests the function VALUE instead of the derivative: right for x**2 and x**3 at 0 only by luck.
    return bool(jnp.abs(function(x)) <= tol)
