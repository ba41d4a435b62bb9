# replaces: exercise-solution
# fails: exercise-test
def central_difference(function, x, h):
    # Converts x to a Python float: the function is then computed in float64, not in x's float32.
    x = float(x)
    return (function(x + h) - function(x - h)) / (2 * h)
