# replaces: exercise-solution
# fails: exercise-test
def batch_for_step(key, step, n, batch_size):
    # Treats the data as a stream of n rows per epoch: epoch = step * batch_size // n, without dropping
    # the remainder, so epochs and positions drift from the rule when n % batch_size != 0.
    epoch, start = divmod(step * batch_size, n)
    order = jax.random.permutation(jax.random.fold_in(key, epoch), n)
    return jax.lax.dynamic_slice(order, (start,), (batch_size,))
