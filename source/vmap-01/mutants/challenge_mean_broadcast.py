# replaces: challenge-solution
# fails: challenge-test
def per_example_grads(loss, params, xs, ys):
    # The gradient of the MEAN loss, copied once per example: every row is the same.
    def mean_loss(p):
        return jnp.mean(jax.vmap(loss, in_axes=(None, 0, 0))(p, xs, ys))
    g = jax.grad(mean_loss)(params)
    return jax.tree.map(lambda leaf: jnp.broadcast_to(leaf, (xs.shape[0],) + leaf.shape), g)
