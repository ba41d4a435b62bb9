# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # jnp.sum without an axis adds up the whole batch, not each row
