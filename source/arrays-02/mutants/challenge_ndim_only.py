# replaces: challenge-solution
# fails: challenge-test
def aligned_mse(prediction, target):
    # Compares only the number of axes. (3,) against (3, 1) is rejected, but (1,) against
    # (3,) and (2, 1) against (1, 2) still broadcast.
    prediction = jnp.asarray(prediction)
    target = jnp.asarray(target)
    if prediction.ndim != target.ndim:
        raise ValueError(f"prediction shape {prediction.shape} != target shape {target.shape}")
    return jnp.mean((prediction - target) ** 2)
