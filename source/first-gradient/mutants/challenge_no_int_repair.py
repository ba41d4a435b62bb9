# replaces: challenge-solution
# fails: challenge-test
def checked_grad(function, x):
    # Plain jax.grad: integer inputs still raise JAX's TypeError.
    return jax.grad(function)(x)
