# replaces: practice-solution
# fails: practice-test
def masked_mean_xent(logits, labels, mask):
    # Boolean indexing: right eagerly, but its shape depends on the mask, so jax.jit refuses it.
    log_probs = jax.nn.log_softmax(logits)
    per_example = -jnp.take_along_axis(log_probs, labels[:, None], axis=1)[:, 0]
    return jnp.mean(per_example[mask])
