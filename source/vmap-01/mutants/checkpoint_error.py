# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 2  # nothing checks the rank: v / jnp.sum(v) runs on any shape
