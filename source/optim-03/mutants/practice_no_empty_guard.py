# replaces: practice-solution
# fails: practice-test
def masked_mean_xent(logits, labels, mask):
    # Right for every batch with a real row; a batch with none gives 0 / 0 = nan.
    log_probs = jax.nn.log_softmax(logits)
    per_example = -jnp.take_along_axis(log_probs, labels[:, None], axis=1)[:, 0]
    return jnp.sum(jnp.where(mask, per_example, 0.0)) / jnp.sum(mask)
