# replaces: practice-solution
# fails: practice-test
def per_example_grad_norms(loss_one, params, xs, ys):
    # Measures only the first leaf of the tree; right for a single array, wrong for {"w", "b"}.
    grads = jax.vmap(jax.grad(loss_one), in_axes=(None, 0, 0))(params, xs, ys)
    g = jax.tree.leaves(grads)[0]
    return jnp.sqrt(jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1))
