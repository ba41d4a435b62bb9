# replaces: practice-solution
# fails: practice-test
def masked_mean_xent(logits, labels, mask):
    # log(softmax(z)): softmax underflows to 0 for a label far below the row's maximum, and log(0) is -inf.
    log_probs = jnp.log(jax.nn.softmax(logits))
    per_example = -jnp.take_along_axis(log_probs, labels[:, None], axis=1)[:, 0]
    return jnp.sum(jnp.where(mask, per_example, 0.0)) / jnp.maximum(jnp.sum(mask), 1)
