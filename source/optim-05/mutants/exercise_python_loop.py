# replaces: exercise-solution
# fails: exercise-test
def accumulated_grad(loss_fn, params, xs, ys, num_microbatches):
    # Right values, but a Python loop: under jit it is unrolled into k copies of the
    # gradient program, so nothing bounds the memory to one microbatch.
    size = xs.shape[0] // num_microbatches
    total = jax.tree.map(jnp.zeros_like, params)
    for j in range(num_microbatches):
        grads = jax.grad(loss_fn)(params, xs[j * size:(j + 1) * size], ys[j * size:(j + 1) * size])
        total = jax.tree.map(jnp.add, total, grads)
    return jax.tree.map(lambda t: t / num_microbatches, total)
