# replaces: practice-solution
# fails: practice-test
def lm_loss(logits, targets):
    # Sums over the positions instead of averaging: the loss grows with batch size and length.
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.sum(jnp.take_along_axis(log_probs, targets[..., None], axis=-1))
