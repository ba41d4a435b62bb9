# replaces: step-choice-solution
# fails: step-choice-test
def best_step(function, x, steps):
    # Types in the answer of the visible example (x**3 at 3 over the lesson's steps)
    # instead of searching the steps it is given.
    return 1e-2
