# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # expects JAX to notice the replaced arrays
