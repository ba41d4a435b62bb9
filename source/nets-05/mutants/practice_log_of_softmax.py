# replaces: practice-solution
# fails: practice-test
def lm_loss(logits, targets):
    # log(softmax(.)): the softmax underflows to 0 for logits far apart, and the loss becomes inf.
    probs = jax.nn.softmax(logits, axis=-1)
    picked = jnp.take_along_axis(probs, targets[..., None], axis=-1)[..., 0]
    return -jnp.mean(jnp.log(picked))
