# replaces: practice-solution
# fails: practice-test
def bce_from_logits(logits, labels):
    # Sigmoid first, then the logs: sigmoid(z) rounds to 1.0 above z = 16.64 and to 0 below -87,
    # so the loss becomes inf, or 0 * log(0) = nan.
    p = jax.nn.sigmoid(logits)
    return -(labels * jnp.log(p) + (1.0 - labels) * jnp.log(1.0 - p))
