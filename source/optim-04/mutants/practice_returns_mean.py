# replaces: practice-solution
# fails: practice-test
def bce_from_logits(logits, labels):
    # Stable, but averaged over the batch: one number instead of one loss per example.
    return jnp.mean(labels * jax.nn.softplus(-logits) + (1.0 - labels) * jax.nn.softplus(logits))
