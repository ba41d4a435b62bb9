# replaces: step-choice-solution
# fails: step-choice-test
def best_step(function, x, steps):
    # "Smaller is always more accurate": ignores round-off, which dominates in float32.
    return min(steps)
