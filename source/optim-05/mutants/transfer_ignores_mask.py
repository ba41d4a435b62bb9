# replaces: transfer-solution
# fails: transfer-test
def masked_accumulated_grad(loss_one, params, micro_xs, micro_ys, micro_mask):
    # Ignores the mask: the padding rows' arbitrary values enter the gradient.
    def microbatch_mean(p, x, y):
        return jnp.mean(jax.vmap(loss_one, in_axes=(None, 0, 0))(p, x, y))

    grads = jax.vmap(jax.grad(microbatch_mean), in_axes=(None, 0, 0))(params, micro_xs, micro_ys)
    return jax.tree.map(lambda g: jnp.mean(g, axis=0), grads)
