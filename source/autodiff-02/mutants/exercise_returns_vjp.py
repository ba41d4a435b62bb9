# replaces: exercise-solution
# fails: exercise-test
def directional_derivative(f, x, v):
    # Pulls v back instead of pushing it forward: v^T J (= J^T v), not J v. The shapes only fit
    # when J is square, and even then the numbers agree only for a symmetric J.
    _, pullback = jax.vjp(f, x)
    return pullback(v)[0]
