# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # multiplies by (1 - mu) the wrong way round: 100 times too small
