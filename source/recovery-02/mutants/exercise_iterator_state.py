# replaces: exercise-solution
# fails: exercise-test
_positions = {}


def batch_for_step(key, step, n, batch_size):
    # Keeps its own position, like an iterator: ignores `step`, so a restart (or any call out of
    # order) gets the next batch of its counter, not the batch of that step.
    steps_per_epoch = n // batch_size
    count = _positions.get((n, batch_size), 0)
    _positions[(n, batch_size)] = count + 1
    epoch, position = count // steps_per_epoch, count % steps_per_epoch
    order = jax.random.permutation(jax.random.fold_in(key, epoch), n)
    return jax.lax.dynamic_slice(order, (position * batch_size,), (batch_size,))
