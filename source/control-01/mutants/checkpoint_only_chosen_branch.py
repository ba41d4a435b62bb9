# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # true for a scalar cond; under vmap both branches run for every element
