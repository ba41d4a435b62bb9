# replaces: transfer-solution
# fails: transfer-test
def masked_accumulated_grad(loss_one, params, micro_xs, micro_ys, micro_mask):
    # Masks the losses but divides by k * m, counting the padding rows as examples.
    def masked_sum(p, x, y, mask):
        return jnp.sum(mask * jax.vmap(loss_one, in_axes=(None, 0, 0))(p, x, y))

    grads = jax.vmap(jax.grad(masked_sum), in_axes=(None, 0, 0, 0))(params, micro_xs, micro_ys, micro_mask)
    return jax.tree.map(lambda g: jnp.sum(g, axis=0) / micro_mask.size, grads)
