# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # a target without sharding means the saved layout in orbax 0.12.8, not replicated
