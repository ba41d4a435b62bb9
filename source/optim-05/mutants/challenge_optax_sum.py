# replaces: challenge-solution
# fails: challenge-test
def clipped_mean_grad(loss_one, params, xs, ys, max_norm):
    # Uses optax.per_example_global_norm_clip but forgets that it returns the SUM: B times too large.
    grads = jax.vmap(jax.grad(loss_one), in_axes=(None, 0, 0))(params, xs, ys)
    leaves, treedef = jax.tree.flatten(grads)
    clipped_sum, _ = optax.per_example_global_norm_clip(leaves, max_norm)
    return jax.tree.unflatten(treedef, clipped_sum)
