# replaces: practice-attention-solution
# fails: practice-attention-test, challenge-test
def attention(q, k, v, mask=None):
    # Sets masked scores to 0 instead of -inf: exp(0) = 1, so masked keys still get weight.
    scores = q @ k.T / jnp.sqrt(q.shape[-1])
    if mask is not None:
        scores = jnp.where(mask, scores, 0.0)
    return jax.nn.softmax(scores, axis=-1) @ v
