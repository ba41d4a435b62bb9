# replaces: challenge-solution
# fails: challenge-test
def evaluate(parameters, inputs, targets):
    # Predicts with the global `params`, whatever model it was asked to evaluate.
    predictions = predict(params, inputs)
    residuals = predictions - targets
    return predictions, {"mse": jnp.mean(residuals ** 2), "max_abs_error": jnp.max(jnp.abs(residuals))}
