# replaces: transfer-solution
# fails: transfer-test
def masked_lm_loss(logits, targets, mask):
    # Ignores the mask: the padded positions count as if they were text.
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(log_probs, targets[..., None], axis=-1))
