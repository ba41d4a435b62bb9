# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # expects different shapes to fail; (8,) and (8, 1) broadcast to (8, 8)
