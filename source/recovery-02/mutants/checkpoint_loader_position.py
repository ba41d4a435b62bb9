# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # the batches are a function of (key, step): the step in the checkpoint is the position
