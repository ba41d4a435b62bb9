# replaces: practice-solution
# fails: practice-test
def bce_from_logits(logits, labels):
    # The clipped probability: never inf, but the loss is capped near 16 and its slope is 0 beyond.
    p = jnp.clip(jax.nn.sigmoid(logits), 1e-7, 1.0 - 1e-7)
    return -(labels * jnp.log(p) + (1.0 - labels) * jnp.log(1.0 - p))
