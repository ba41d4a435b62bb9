# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # fold_in(base, 6000) is a different key from the 6000th key of a split chain
