# replaces: exercise-solution
# fails: exercise-test
def batch_for_step(key, step, n, batch_size):
    # Step 1's batch_rows with the sizes as arguments: right for a Python int, but the Python slice
    # needs static bounds and fails when `step` is traced (jit, vmap, scan).
    epoch, position = divmod(step, n // batch_size)
    order = jax.random.permutation(jax.random.fold_in(key, epoch), n)
    return order[position * batch_size:(position + 1) * batch_size]
