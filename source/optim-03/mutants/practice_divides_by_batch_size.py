# replaces: practice-solution
# fails: practice-test
def masked_mean_xent(logits, labels, mask):
    # Masks the padding out of the sum but divides by the batch size, not the number of real rows.
    log_probs = jax.nn.log_softmax(logits)
    per_example = -jnp.take_along_axis(log_probs, labels[:, None], axis=1)[:, 0]
    return jnp.sum(jnp.where(mask, per_example, 0.0)) / mask.shape[0]
