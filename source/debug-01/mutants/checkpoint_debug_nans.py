# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # debug_nans names an operation (here only `scan`), not a step, and ignores inf
