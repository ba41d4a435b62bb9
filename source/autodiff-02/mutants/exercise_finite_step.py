# replaces: exercise-solution
# fails: exercise-test
def directional_derivative(f, x, v):
    # A unit finite step along v: f(x + v) - f(x) includes the curvature, not only J v.
    return f(x + v) - f(x)
