# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # reads a tuple entry as replication
