# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # divides where the bug multiplies
