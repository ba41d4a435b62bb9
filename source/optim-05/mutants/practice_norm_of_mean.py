# replaces: practice-solution
# fails: practice-test
def per_example_grad_norms(loss_one, params, xs, ys):
    # The norm of the gradient of the MEAN loss, repeated for every example.
    def mean_loss(p):
        return jnp.mean(jax.vmap(loss_one, in_axes=(None, 0, 0))(p, xs, ys))

    grads = jax.grad(mean_loss)(params)
    norm = jnp.sqrt(sum(jnp.sum(g ** 2) for g in jax.tree.leaves(grads)))
    return jnp.full((xs.shape[0],), norm)
