# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # parameters and optimizer state are not all the state: the key and the cursor are missing
