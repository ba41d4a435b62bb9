# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # the growth of unscaled N(0, 1) weights, not of weights divided by sqrt(64)
