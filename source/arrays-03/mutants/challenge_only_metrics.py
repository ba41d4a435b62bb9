# replaces: challenge-solution
# fails: challenge-test
def evaluate(params, inputs, targets):
    # Returns only the metrics; the caller loses the predictions.
    residuals = predict(params, inputs) - targets
    return {"mse": jnp.mean(residuals ** 2), "max_abs_error": jnp.max(jnp.abs(residuals))}
