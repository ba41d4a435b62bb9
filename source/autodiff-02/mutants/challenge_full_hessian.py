# replaces: challenge-solution
# fails: challenge-test
def hvp(f, x, v):
    # Builds the whole Hessian and uses @: only right for vector inputs; for a (2, 3) input
    # the Hessian has shape (2, 3, 2, 3).
    return jnp.matmul(jax.hessian(f)(x), v, precision="highest")
