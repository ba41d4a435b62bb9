# replaces: exercise-solution
# fails: exercise-test
def directional_derivative(f, x, v):
    # Materializes J and uses @: right for vector inputs only. For a (2, 3) input the Jacobian
    # has shape (2, 2, 3), and J @ v is not J v.
    return jnp.matmul(jax.jacfwd(f)(x), v, precision="highest")
