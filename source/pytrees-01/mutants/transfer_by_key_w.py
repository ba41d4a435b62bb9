# replaces: transfer-solution
# fails: transfer-test
def sgd_weight_decay(params, grads, lr, wd):
    # Picks the weights by the key "w", as in the example: a "kernel", a list entry or a class field is never decayed.
    def update(path, p, g):
        if getattr(path[-1], "key", None) == "w":
            return p - lr * (g + wd * p)
        return p - lr * g

    return jax.tree.map_with_path(update, params, grads)
