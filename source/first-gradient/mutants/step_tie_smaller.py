# replaces: step-choice-solution
# fails: step-choice-test
def best_step(function, x, steps):
    # Takes the minimum over (error, step) pairs: on a tie it returns the SMALLER step,
    # not the earlier one the exercise asks for.
    exact = jax.grad(function)(x)
    errors = [abs(float(central_difference(function, x, h) - exact)) for h in steps]
    return min(zip(errors, steps))[1]
