# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # the seed's claim: a Python float makes the result 64-bit
