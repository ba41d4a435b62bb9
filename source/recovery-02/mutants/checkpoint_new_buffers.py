# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 4  # restored arrays hold the same bits, and the same program on the same bits gives the same bits
