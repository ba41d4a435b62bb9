# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # a reshape keeps the OIHW order of the numbers: the right shape, scrambled weights
