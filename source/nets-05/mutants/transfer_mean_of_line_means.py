# replaces: transfer-solution
# fails: transfer-test
def masked_lm_loss(logits, targets, mask):
    # Averages the per-line means: short lines weigh as much as long ones, and an empty line gives nan.
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    nll = -jnp.take_along_axis(log_probs, targets[..., None], axis=-1)[..., 0]
    mask = mask.astype(nll.dtype)
    return jnp.mean(jnp.sum(nll * mask, axis=-1) / jnp.sum(mask, axis=-1))
