# replaces: challenge-solution
# fails: challenge-test
def evaluate(params, inputs, targets):
    # Takes the largest signed residual: an error where the prediction is too low is missed.
    predictions = predict(params, inputs)
    residuals = predictions - targets
    return predictions, {"mse": jnp.mean(residuals ** 2), "max_abs_error": jnp.max(residuals)}
