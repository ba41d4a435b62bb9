# replaces: exercise-solution
# fails: exercise-test
def accumulated_grad(loss_fn, params, xs, ys, num_microbatches):
    # Skips the accumulation altogether: the right number, with the whole batch's memory.
    return jax.grad(loss_fn)(params, xs, ys)
