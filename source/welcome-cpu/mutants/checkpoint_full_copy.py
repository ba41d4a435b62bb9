# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 2  # confuses row partitioning with replication
