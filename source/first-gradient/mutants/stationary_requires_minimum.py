# replaces: stationary-solution
# fails: stationary-test
def is_stationary(function, x, tol=1e-6):
    # Confuses "stationary" with "minimum": also demands higher neighbours.
    flat = bool(jnp.abs(jax.grad(function)(x)) <= tol)
    return flat and bool(function(x - 0.1) > function(x)) and bool(function(x + 0.1) > function(x))
