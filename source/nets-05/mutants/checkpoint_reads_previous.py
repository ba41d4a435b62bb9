# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 2  # the mask hides later tokens; earlier ones are always readable
