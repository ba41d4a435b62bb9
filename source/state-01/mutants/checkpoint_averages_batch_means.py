# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # (0 + 10) / 2: averages the batch means, ignoring that 90 values had mean 0
