# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # that is what check_vma=False returns, silently; with the check on, tracing fails
