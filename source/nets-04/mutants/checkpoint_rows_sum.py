# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # the softmax makes the rows sum to 1, with or without the scale
