# replaces: challenge-solution
# fails: challenge-test
def aligned_mse(prediction, target):
    # "Helpfully" reshapes the target whenever the element counts agree. A (3, 1) column is
    # accepted, and a transposed (3, 2) target is scrambled instead of rejected.
    prediction = jnp.asarray(prediction)
    target = jnp.asarray(target)
    if prediction.size != target.size:
        raise ValueError(f"prediction shape {prediction.shape} != target shape {target.shape}")
    target = target.reshape(prediction.shape)
    return jnp.mean((prediction - target) ** 2)
