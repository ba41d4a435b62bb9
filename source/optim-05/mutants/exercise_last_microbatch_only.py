# replaces: exercise-solution
# fails: exercise-test
def accumulated_grad(loss_fn, params, xs, ys, num_microbatches):
    # Scans over the microbatches but keeps only the LAST gradient instead of their sum.
    def split(a):
        return a.reshape(num_microbatches, a.shape[0] // num_microbatches, *a.shape[1:])

    def keep_latest(latest, microbatch):
        return jax.grad(loss_fn)(params, *microbatch), None

    latest, _ = jax.lax.scan(keep_latest, jax.tree.map(jnp.zeros_like, params), (split(xs), split(ys)))
    return latest
