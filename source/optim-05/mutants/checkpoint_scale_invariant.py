# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # true of Adam (Experiment 3), not of SGD
