# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # confuses the consumed axis (observations) with the kept one
