# replaces: practice-attention-solution
# fails: practice-attention-test, challenge-test
def attention(q, k, v, mask=None):
    # Normalises each column (over the queries) instead of each row (over the keys).
    scores = q @ k.T / jnp.sqrt(q.shape[-1])
    if mask is not None:
        scores = jnp.where(mask, scores, -jnp.inf)
    return jax.nn.softmax(scores, axis=0) @ v
