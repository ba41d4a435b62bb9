# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # a print in the body runs at trace time, not at every call
