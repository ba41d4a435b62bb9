# replaces: exercise-solution
# fails: exercise-test
def epoch_batches(key, n, bs):
    # Shuffles only the first (n // bs) * bs indices: the last n % bs examples sit out every epoch.
    num_batches = n // bs
    return jax.random.permutation(key, num_batches * bs).reshape(num_batches, bs)
