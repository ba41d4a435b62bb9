# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # a checkpoint recomputes the same values: loss and gradients do not change
