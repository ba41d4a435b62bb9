# replaces: practice-solution
# fails: practice-test
def lm_loss(logits, targets):
    # Averages -log p over the whole vocabulary: never reads the targets, and is smallest for a uniform model.
    return -jnp.mean(jax.nn.log_softmax(logits, axis=-1))
