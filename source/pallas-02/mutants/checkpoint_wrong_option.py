# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1
