# replaces: practice-solution
# fails: practice-test
def bce_from_logits(logits, labels):
    # Right values everywhere, but autodiff of the max/abs pieces gives the slope -y at z = 0
    # instead of 0.5 - y.
    return jnp.maximum(logits, 0.0) - logits * labels + jnp.log1p(jnp.exp(-jnp.abs(logits)))
