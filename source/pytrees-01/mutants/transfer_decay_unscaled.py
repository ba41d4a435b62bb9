# replaces: transfer-solution
# fails: transfer-test
def sgd_weight_decay(params, grads, lr, wd):
    # Shrinks the weights by (1 - wd) instead of (1 - lr * wd): the decay ignores the learning rate.
    def update(p, g):
        if jnp.ndim(p) >= 2:
            return (1 - wd) * p - lr * g
        return p - lr * g

    return jax.tree.map(update, params, grads)
