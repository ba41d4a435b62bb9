# replaces: exercise-solution
# fails: exercise-test, step-choice-test
def central_difference(function, x, h):
    # Ignores the step it was given and always uses a tiny one; float32 round-off shows.
    tiny = 1e-6
    return (function(x + tiny) - function(x - tiny)) / (2 * tiny)
