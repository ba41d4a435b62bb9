# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # the x1 direction (factor 0.979) still converges; only x2 diverges
