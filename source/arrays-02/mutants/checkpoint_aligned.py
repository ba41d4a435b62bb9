# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 2  # assumes the column target lines up with the predictions
