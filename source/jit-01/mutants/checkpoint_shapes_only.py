# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # counts shapes only: jnp.float32(1.0) is float32[], not the weak ~float32[] of 1.0
