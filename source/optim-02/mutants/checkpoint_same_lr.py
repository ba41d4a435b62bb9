# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # keeps 0.01: the average form then takes steps ten times smaller
