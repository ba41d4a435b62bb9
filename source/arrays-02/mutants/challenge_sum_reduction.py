# replaces: challenge-solution
# fails: challenge-test
def aligned_mse(prediction, target):
    # Right check, wrong reduction: the sum of squared errors grows with the batch size.
    prediction = jnp.asarray(prediction)
    target = jnp.asarray(target)
    if prediction.shape != target.shape:
        raise ValueError(f"prediction shape {prediction.shape} != target shape {target.shape}")
    return jnp.sum((prediction - target) ** 2)
