# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # row-first thinking: with w1 split by columns the hidden units are already complete
