# replaces: step-choice-solution
# fails: step-choice-test
def best_step(function, x, steps):
    # Compares the estimates with the function VALUE instead of the derivative.
    # For x**3 at 3 both are 27, so the visible check cannot tell.
    target = function(x)
    errors = [abs(float(central_difference(function, x, h) - target)) for h in steps]
    return steps[errors.index(min(errors))]
