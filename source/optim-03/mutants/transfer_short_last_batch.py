# replaces: transfer-solution
# fails: transfer-test
def evaluate_in_batches(predict_fn, params, x, y, batch_size):
    # Right totals, but the remainder goes through predict_fn as a short batch: a second shape.
    n = x.shape[0]
    loss_sum, num_correct = 0.0, 0
    for start in range(0, n, batch_size):
        xb, yb = x[start:start + batch_size], y[start:start + batch_size]
        log_probs = jax.nn.log_softmax(predict_fn(params, xb))
        loss_sum = loss_sum - jnp.sum(jnp.take_along_axis(log_probs, yb[:, None], axis=1))
        num_correct = num_correct + jnp.sum(jnp.argmax(log_probs, axis=1) == yb)
    return {"loss": loss_sum / n, "accuracy": num_correct / n}
