# replaces: transfer-solution
# fails: transfer-test
def sgd_weight_decay(params, grads, lr, wd):
    # Off by one: ndim > 2 leaves every weight matrix out of the decay.
    def update(p, g):
        if jnp.ndim(p) > 2:
            return p - lr * (g + wd * p)
        return p - lr * g

    return jax.tree.map(update, params, grads)
