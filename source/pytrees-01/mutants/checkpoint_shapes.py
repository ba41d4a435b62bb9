# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 2  # the treedef records containers, keys and static values, not shapes
