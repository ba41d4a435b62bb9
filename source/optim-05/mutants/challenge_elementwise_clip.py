# replaces: challenge-solution
# fails: challenge-test
def clipped_mean_grad(loss_one, params, xs, ys, max_norm):
    # Clips every COMPONENT to [-max_norm, max_norm]: changes directions and bounds no norm.
    grads = jax.vmap(jax.grad(loss_one), in_axes=(None, 0, 0))(params, xs, ys)
    return jax.tree.map(lambda g: jnp.mean(jnp.clip(g, -max_norm, max_norm), axis=0), grads)
