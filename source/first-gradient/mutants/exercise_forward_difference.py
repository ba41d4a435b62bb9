# replaces: exercise-solution
# fails: exercise-test, step-choice-test
def central_difference(function, x, h):
    # Forward difference where the central one was asked: error ~ h instead of ~ h**2.
    return (function(x + h) - function(x)) / h
