# replaces: exercise-solution
# fails: exercise-test
def epoch_batches(key, n, bs):
    # Right shape, wrong rows: consecutive entries of the order land in different batches.
    num_batches = n // bs
    return jax.random.permutation(key, n)[: num_batches * bs].reshape(bs, num_batches).T
