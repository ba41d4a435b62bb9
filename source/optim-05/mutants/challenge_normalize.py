# replaces: challenge-solution
# fails: challenge-test
def clipped_mean_grad(loss_one, params, xs, ys, max_norm):
    # Rescales EVERY example to norm max_norm (normalizes), also scaling small gradients up;
    # a zero gradient becomes 0 * inf = NaN.
    grads = jax.vmap(jax.grad(loss_one), in_axes=(None, 0, 0))(params, xs, ys)
    norms = jnp.sqrt(sum(jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1) for g in jax.tree.leaves(grads)))
    scale = max_norm / norms
    return jax.tree.map(lambda g: jnp.mean(g * scale.reshape((-1,) + (1,) * (g.ndim - 1)), axis=0), grads)
