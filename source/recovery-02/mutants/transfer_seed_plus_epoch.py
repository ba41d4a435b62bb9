# replaces: transfer-solution
# fails: transfer-test
def host_batch_for_step(seed, step, n, batch_size):
    # Seeds with seed + epoch: epoch 1 of seed 0 is epoch 0 of seed 1, so neighbouring runs share orders.
    steps_per_epoch = n // batch_size
    epoch, position = divmod(step, steps_per_epoch)
    order = np.random.default_rng(seed + epoch).permutation(n)
    return order[position * batch_size:(position + 1) * batch_size]
