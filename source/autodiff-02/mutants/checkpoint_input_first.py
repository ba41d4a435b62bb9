# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # puts the input's shape first; JAX puts the output's shape first
