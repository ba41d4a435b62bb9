# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # applying the refused updates puts inf and nan into the parameters; nothing brings the run back
