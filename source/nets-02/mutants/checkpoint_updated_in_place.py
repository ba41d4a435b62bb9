# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # believes the compiled closure sees the in-place update
