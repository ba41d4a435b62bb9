# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # a crash writes nothing: the newest checkpoint is the one of step 200
