# replaces: exercise-solution
# fails: exercise-test
def batch_for_step(key, step, n, batch_size):
    # The same permutation every epoch: no fold_in(key, epoch), so every epoch repeats epoch 0's order.
    position = step % (n // batch_size)
    order = jax.random.permutation(key, n)
    return jax.lax.dynamic_slice(order, (position * batch_size,), (batch_size,))
