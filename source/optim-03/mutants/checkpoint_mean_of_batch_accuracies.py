# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # averaging 6 batch accuracies weighs the 40 images of the last batch 1.6 times
