# replaces: stationary-solution
# fails: stationary-test
def is_stationary(function, x, tol=1e-6):
    # Ignores the tolerance: float32 rounding rarely produces an exact zero.
    return bool(jax.grad(function)(x) == 0.0)
