# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # reads a zero gradient as a minimum
