# replaces: exercise-solution
# fails: exercise-test
def epoch_batches(key, n, bs):
    # Draws indices with replacement: some examples twice in an epoch, others not at all.
    num_batches = n // bs
    return jax.random.randint(key, (num_batches, bs), 0, n)
