# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # restarting the chain from the base key hands step 6000 the key of step 0
