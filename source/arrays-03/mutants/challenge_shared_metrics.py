# replaces: challenge-solution
# fails: challenge-test
metrics = {}


def evaluate(params, inputs, targets):
    # Fills one global dictionary on every call: every result returned shares it.
    predictions = predict(params, inputs)
    residuals = predictions - targets
    metrics["mse"] = jnp.mean(residuals ** 2)
    metrics["max_abs_error"] = jnp.max(jnp.abs(residuals))
    return predictions, metrics
