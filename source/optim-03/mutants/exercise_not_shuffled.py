# replaces: exercise-solution
# fails: exercise-test
def epoch_batches(key, n, bs):
    # Ignores the key: the stored order, every epoch, and the last n % bs examples never seen.
    num_batches = n // bs
    return jnp.arange(n)[: num_batches * bs].reshape(num_batches, bs)
