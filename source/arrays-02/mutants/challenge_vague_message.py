# replaces: challenge-solution
# fails: challenge-test
def aligned_mse(prediction, target):
    # Rejects the right cases, but the message does not say which shapes met.
    prediction = jnp.asarray(prediction)
    target = jnp.asarray(target)
    if prediction.shape != target.shape:
        raise ValueError("shape mismatch")
    return jnp.mean((prediction - target) ** 2)
