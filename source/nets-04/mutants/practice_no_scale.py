# replaces: practice-attention-solution
# fails: practice-attention-test, challenge-test
def attention(q, k, v, mask=None):
    # Forgets the 1/sqrt(d): the softmax sees scores sqrt(d) times too wide.
    scores = q @ k.T
    if mask is not None:
        scores = jnp.where(mask, scores, -jnp.inf)
    return jax.nn.softmax(scores, axis=-1) @ v
