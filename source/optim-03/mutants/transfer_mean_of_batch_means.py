# replaces: transfer-solution
# fails: transfer-test
def evaluate_in_batches(predict_fn, params, x, y, batch_size):
    # Masks correctly, then averages the per-batch means: the short last batch weighs too much.
    n = x.shape[0]
    num_batches = -(-n // batch_size)
    slots = jnp.arange(num_batches * batch_size)
    idx = jnp.where(slots < n, slots, 0).reshape(num_batches, batch_size)
    mask = (slots < n).reshape(num_batches, batch_size)

    def batch_means(batch):
        idx_b, mask_b = batch
        log_probs = jax.nn.log_softmax(predict_fn(params, x[idx_b]))
        xent = -jnp.take_along_axis(log_probs, y[idx_b][:, None], axis=1)[:, 0]
        correct = jnp.argmax(log_probs, axis=1) == y[idx_b]
        real = jnp.sum(mask_b)
        return jnp.sum(jnp.where(mask_b, xent, 0.0)) / real, jnp.sum(mask_b & correct) / real

    losses, accuracies = jax.lax.map(batch_means, (idx, mask))
    return {"loss": jnp.mean(losses), "accuracy": jnp.mean(accuracies)}
