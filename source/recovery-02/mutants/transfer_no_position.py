# replaces: transfer-solution
# fails: transfer-test
def host_batch_for_step(seed, step, n, batch_size):
    # Forgets the position in the epoch: every step of an epoch gets the epoch's first batch.
    epoch = step // (n // batch_size)
    return np.random.default_rng([seed, epoch]).permutation(n)[:batch_size]
