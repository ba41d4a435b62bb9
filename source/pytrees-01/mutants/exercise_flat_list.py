# replaces: exercise-solution
# fails: exercise-test
def sgd_update(params, grads, lr):
    # Zips the two lists of leaves: the update is right, but it returns a flat list, not the tree.
    return [p - lr * g for p, g in zip(jax.tree.leaves(params), jax.tree.leaves(grads))]
