# replaces: challenge-solution
# fails: challenge-test
def clipped_mean_grad(loss_one, params, xs, ys, max_norm):
    # Clips every LEAF of each example to max_norm on its own, instead of the example's global norm.
    grads = jax.vmap(jax.grad(loss_one), in_axes=(None, 0, 0))(params, xs, ys)

    def clip_leaf(g):
        norms = jnp.sqrt(jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1))
        scale = jnp.minimum(1.0, max_norm / norms)
        return jnp.mean(g * scale.reshape((-1,) + (1,) * (g.ndim - 1)), axis=0)

    return jax.tree.map(clip_leaf, grads)
