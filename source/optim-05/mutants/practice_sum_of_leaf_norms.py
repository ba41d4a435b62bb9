# replaces: practice-solution
# fails: practice-test
def per_example_grad_norms(loss_one, params, xs, ys):
    # Adds the norms of the leaves instead of taking one norm over all of them (5 + 12, not 13).
    grads = jax.vmap(jax.grad(loss_one), in_axes=(None, 0, 0))(params, xs, ys)
    return sum(jnp.sqrt(jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1)) for g in jax.tree.leaves(grads))
