# replaces: challenge-solution
# fails: challenge-test
def aligned_mse(prediction, target):
    # No shape check: a (3, 1) target broadcasts against (3,) predictions to a (3, 3)
    # matrix of all pairs, and the mean hides it.
    return jnp.mean((prediction - target) ** 2)
