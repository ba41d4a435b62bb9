# replaces: transfer-solution
# fails: transfer-test
def evaluate_in_batches(predict_fn, params, x, y, batch_size):
    # Drops the remainder as in training: the last n % batch_size rows are never evaluated.
    n = x.shape[0]
    num_batches = n // batch_size
    idx = jnp.arange(num_batches * batch_size).reshape(num_batches, batch_size)

    def add_batch(totals, idx_b):
        log_probs = jax.nn.log_softmax(predict_fn(params, x[idx_b]))
        xent = -jnp.take_along_axis(log_probs, y[idx_b][:, None], axis=1)[:, 0]
        correct = jnp.argmax(log_probs, axis=1) == y[idx_b]
        return (totals[0] + jnp.sum(xent), totals[1] + jnp.sum(correct)), None

    (loss_sum, num_correct), _ = jax.lax.scan(add_batch, (jnp.float32(0.0), jnp.int32(0)), idx)
    count = num_batches * batch_size
    return {"loss": loss_sum / count, "accuracy": num_correct / count}
