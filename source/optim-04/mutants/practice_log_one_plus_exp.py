# replaces: practice-solution
# fails: practice-test
def bce_from_logits(logits, labels):
    # softplus(z) - y z with a naive softplus: exp(z) overflows to inf for z above 88.7.
    return jnp.log(1.0 + jnp.exp(logits)) - labels * logits
