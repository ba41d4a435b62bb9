# replaces: transfer-solution
# fails: transfer-test
def masked_lm_loss(logits, targets, mask):
    # Zeroes the padded losses but divides by every position: padding still lowers the mean.
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    nll = -jnp.take_along_axis(log_probs, targets[..., None], axis=-1)[..., 0]
    return jnp.mean(nll * mask)
