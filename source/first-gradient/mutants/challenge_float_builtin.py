# replaces: challenge-solution
# fails: challenge-test
def checked_grad(function, x):
    # Repairs Python ints only; an integer ARRAY still reaches jax.grad as int32.
    if isinstance(x, int):
        x = float(x)
    return jax.grad(function)(x)
