# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # forgets that each ReLU removes half of the mean square
