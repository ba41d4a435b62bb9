# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # describes FSDP over all 8 devices, not tensor parallelism
