# replaces: step-choice-solution
# fails: step-choice-test
def best_step(function, x, steps):
    # Sweeps the forward difference instead of the central one: a different best step.
    exact = jax.grad(function)(x)
    errors = [abs(float((function(x + h) - function(x)) / h - exact)) for h in steps]
    return steps[errors.index(min(errors))]
