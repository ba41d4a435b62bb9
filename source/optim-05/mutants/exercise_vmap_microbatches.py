# replaces: exercise-solution
# fails: exercise-test
def accumulated_grad(loss_fn, params, xs, ys, num_microbatches):
    # Right values, but vmap computes every microbatch's gradient at once: no memory saved.
    def split(a):
        return a.reshape(num_microbatches, a.shape[0] // num_microbatches, *a.shape[1:])

    grads = jax.vmap(jax.grad(loss_fn), in_axes=(None, 0, 0))(params, split(xs), split(ys))
    return jax.tree.map(lambda g: jnp.mean(g, axis=0), grads)
