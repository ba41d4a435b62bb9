# replaces: transfer-solution
# fails: transfer-test
def evaluate_in_batches(predict_fn, params, x, y, batch_size):
    # Ignores batch_size: one call on all n rows, which is exactly what a large split cannot afford.
    log_probs = jax.nn.log_softmax(predict_fn(params, x))
    xent = -jnp.take_along_axis(log_probs, y[:, None], axis=1)[:, 0]
    return {"loss": jnp.mean(xent), "accuracy": jnp.mean(jnp.argmax(log_probs, axis=1) == y)}
