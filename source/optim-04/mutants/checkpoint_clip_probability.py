# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # no more inf, but the loss is capped near 16 and the slope is 0 beyond it
