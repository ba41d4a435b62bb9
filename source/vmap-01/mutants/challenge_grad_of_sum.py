# replaces: challenge-solution
# fails: challenge-test
def per_example_grads(loss, params, xs, ys):
    # vmap inside grad: the gradient of the summed loss, one tree with no batch axis.
    return jax.grad(lambda p: jnp.sum(jax.vmap(loss, in_axes=(None, 0, 0))(p, xs, ys)))(params)
