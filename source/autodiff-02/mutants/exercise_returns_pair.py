# replaces: exercise-solution
# fails: exercise-test
def directional_derivative(f, x, v):
    # Returns jax.jvp's whole (f(x), J v) pair instead of the tangent.
    return jax.jvp(f, (x,), (v,))
