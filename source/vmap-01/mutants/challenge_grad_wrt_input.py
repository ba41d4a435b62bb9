# replaces: challenge-solution
# fails: challenge-test
def per_example_grads(loss, params, xs, ys):
    # argnums=1: differentiates with respect to the example x, not the parameters.
    return jax.vmap(jax.grad(loss, argnums=1), in_axes=(None, 0, 0))(params, xs, ys)
