# replaces: challenge-solution
# fails: challenge-test
def hvp(f, x, v):
    # The gradient scaled entry by entry: no second derivative at all.
    return jax.grad(f)(x) * v
