# replaces: transfer-solution
# fails: transfer-test
def masked_accumulated_grad(loss_one, params, micro_xs, micro_ys, micro_mask):
    # Averages the per-microbatch masked MEANS: microbatches with few real examples count too
    # much, and an all-padding microbatch gives 0 / 0.
    def masked_mean(p, x, y, mask):
        return jnp.sum(mask * jax.vmap(loss_one, in_axes=(None, 0, 0))(p, x, y)) / jnp.sum(mask)

    grads = jax.vmap(jax.grad(masked_mean), in_axes=(None, 0, 0, 0))(params, micro_xs, micro_ys, micro_mask)
    return jax.tree.map(lambda g: jnp.mean(g, axis=0), grads)
