# replaces: transfer-solution
# fails: transfer-test
def sgd_weight_decay(params, grads, lr, wd):
    # Decays every leaf, biases and scalars included.
    return jax.tree.map(lambda p, g: p - lr * (g + wd * p), params, grads)
