# replaces: exercise-solution
# fails: exercise-test, step-choice-test
def central_difference(function, x, h):
    # Missing parentheses: divides by 2 and then MULTIPLIES by h. Invisible when h == 1.
    return (function(x + h) - function(x - h)) / 2 * h
