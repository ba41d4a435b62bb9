# replaces: challenge-solution
# fails: challenge-test
def per_example_grads(loss, params, xs, ys):
    # Default in_axes=0: the parameters are sliced along with the examples.
    return jax.vmap(jax.grad(loss))(params, xs, ys)
