# replaces: exercise-solution
# fails: exercise-test
def accumulated_grad(loss_fn, params, xs, ys, num_microbatches):
    # Sums the microbatch gradients and forgets to divide by their number:
    # k times the batch gradient (right only for one microbatch).
    def split(a):
        return a.reshape(num_microbatches, a.shape[0] // num_microbatches, *a.shape[1:])

    def add_microbatch(total, microbatch):
        grads = jax.grad(loss_fn)(params, *microbatch)
        return jax.tree.map(jnp.add, total, grads), None

    total, _ = jax.lax.scan(add_microbatch, jax.tree.map(jnp.zeros_like, params), (split(xs), split(ys)))
    return total
