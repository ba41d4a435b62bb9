# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # a small learning rate is not automatically below 2 / lambda_max = 0.02
