# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # a bare (2,) vector lines up with the feature axis (3): it raises, it adds nothing per row
