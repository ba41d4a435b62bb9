# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # believes .at[...].set changes x in place
