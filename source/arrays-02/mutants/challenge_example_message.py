# replaces: challenge-solution
# fails: challenge-test
def aligned_mse(prediction, target):
    # Refuses the right pairs, with the visible test's shapes in the message whatever the shapes are.
    prediction = jnp.asarray(prediction)
    target = jnp.asarray(target)
    if prediction.shape != target.shape:
        raise ValueError("prediction shape (3,) != target shape (3, 1)")
    return jnp.mean((prediction - target) ** 2)
