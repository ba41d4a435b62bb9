# replaces: practice-solution
# fails: practice-test
def per_example_grad_norms(loss_one, params, xs, ys):
    # Forgets the square root: squared norms.
    grads = jax.vmap(jax.grad(loss_one), in_axes=(None, 0, 0))(params, xs, ys)
    return sum(jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1) for g in jax.tree.leaves(grads))
