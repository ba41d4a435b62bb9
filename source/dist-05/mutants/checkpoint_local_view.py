# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # after initialize, jax.device_count() counts the devices of every process
