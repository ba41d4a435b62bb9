# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # forgets the all-reduce: each device would update with its own gradient
