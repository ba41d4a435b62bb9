# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # clipping bounds the step, but a nan gradient makes the global norm nan too
