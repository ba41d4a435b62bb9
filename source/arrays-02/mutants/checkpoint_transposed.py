# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # (3, 2) looks like the batch turned around; against (2, 3) it does not broadcast
