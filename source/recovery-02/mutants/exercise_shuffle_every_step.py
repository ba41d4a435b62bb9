# replaces: exercise-solution
# fails: exercise-test
def batch_for_step(key, step, n, batch_size):
    # A new shuffle for every step: fold_in(key, step) instead of fold_in(key, epoch), so a row can be
    # drawn twice in one epoch and another never.
    order = jax.random.permutation(jax.random.fold_in(key, step), n)
    return order[:batch_size]
