# replaces: practice-solution
# fails: practice-test
def lm_loss(logits, targets):
    # Normalizes over the first axis (the batch) instead of the vocabulary.
    log_probs = jax.nn.log_softmax(logits, axis=0)
    return -jnp.mean(jnp.take_along_axis(log_probs, targets[..., None], axis=-1))
