# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # orbax never invents a new mesh: without a sharding it needs the saved devices
