# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 2  # thinks the Python float falls back to the default float32
