# replaces: challenge-solution
# fails: challenge-test
def clipped_mean_grad(loss_one, params, xs, ys, max_norm):
    # Averages first, then clips the MEAN: bounds the step length, not each example's influence.
    grads = jax.vmap(jax.grad(loss_one), in_axes=(None, 0, 0))(params, xs, ys)
    mean = jax.tree.map(lambda g: jnp.mean(g, axis=0), grads)
    norm = jnp.sqrt(sum(jnp.sum(g ** 2) for g in jax.tree.leaves(mean)))
    scale = jnp.minimum(1.0, max_norm / norm)
    return jax.tree.map(lambda g: g * scale, mean)
