# replaces: transfer-solution
# fails: transfer-test
def evaluate_in_batches(predict_fn, params, x, y, batch_size):
    # Sums over the real rows but divides by every slot, padding included.
    n = x.shape[0]
    num_batches = -(-n // batch_size)
    slots = jnp.arange(num_batches * batch_size)
    idx = jnp.where(slots < n, slots, 0).reshape(num_batches, batch_size)
    mask = (slots < n).reshape(num_batches, batch_size)

    def add_batch(totals, batch):
        idx_b, mask_b = batch
        log_probs = jax.nn.log_softmax(predict_fn(params, x[idx_b]))
        xent = -jnp.take_along_axis(log_probs, y[idx_b][:, None], axis=1)[:, 0]
        correct = jnp.argmax(log_probs, axis=1) == y[idx_b]
        return (totals[0] + jnp.sum(jnp.where(mask_b, xent, 0.0)),
                totals[1] + jnp.sum(mask_b & correct)), None

    (loss_sum, num_correct), _ = jax.lax.scan(add_batch, (jnp.float32(0.0), jnp.int32(0)), (idx, mask))
    slots_total = num_batches * batch_size
    return {"loss": loss_sum / slots_total, "accuracy": num_correct / slots_total}
