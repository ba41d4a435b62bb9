# replaces: practice-solution
# fails: practice-test
def masked_mean_xent(logits, labels, mask):
    # A plain mean: the padding rows count as data.
    log_probs = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.take_along_axis(log_probs, labels[:, None], axis=1))
