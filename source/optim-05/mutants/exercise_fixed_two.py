# replaces: exercise-solution
# fails: exercise-test
def accumulated_grad(loss_fn, params, xs, ys, num_microbatches):
    # Hard-codes the prompt's example of 2 microbatches: breaks on a batch of 5.
    def split(a):
        return a.reshape(2, a.shape[0] // 2, *a.shape[1:])

    def add_microbatch(total, microbatch):
        grads = jax.grad(loss_fn)(params, *microbatch)
        return jax.tree.map(jnp.add, total, grads), None

    total, _ = jax.lax.scan(add_microbatch, jax.tree.map(jnp.zeros_like, params), (split(xs), split(ys)))
    return jax.tree.map(lambda t: t / 2, total)
