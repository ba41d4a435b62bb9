# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # a screenshot of the final number only
