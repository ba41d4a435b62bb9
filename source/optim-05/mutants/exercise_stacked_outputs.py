# replaces: exercise-solution
# fails: exercise-test
def accumulated_grad(loss_fn, params, xs, ys, num_microbatches):
    # Right values, and a scan, but it returns every microbatch's gradient as a stacked output and
    # averages them afterwards: no running sum, so the memory grows with the number of microbatches.
    def split(a):
        return a.reshape(num_microbatches, a.shape[0] // num_microbatches, *a.shape[1:])

    def one_microbatch(_, microbatch):
        return None, jax.grad(loss_fn)(params, *microbatch)

    _, stacked = jax.lax.scan(one_microbatch, None, (split(xs), split(ys)))
    return jax.tree.map(lambda g: jnp.mean(g, axis=0), stacked)
