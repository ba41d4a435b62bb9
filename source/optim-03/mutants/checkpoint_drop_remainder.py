# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # 40 of the 360 validation images would never be evaluated
