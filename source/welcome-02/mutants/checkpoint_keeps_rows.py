# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # confuses the consumed axis with the kept one
