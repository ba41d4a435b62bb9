# replaces: exercise-solution
# fails: exercise-test
def directional_derivative(f, x, v):
    # Builds the Jacobian and multiplies by its transpose: J^T v, the VJP's numbers again.
    return jnp.matmul(jax.jacfwd(f)(x).T, v, precision="highest")
