# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # divides the batch by all 8 devices, ignoring the replication over "model"
