# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # a Python print runs once, at trace time, and shows tracers
