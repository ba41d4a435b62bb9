# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 4  # confuses the local shape with the global shape
