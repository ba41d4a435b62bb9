# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # jit caches compiled programs, not results
