# replaces: practice-attention-solution
# fails: practice-attention-test, challenge-test
def attention(q, k, v, mask=None):
    # Divides by 2, the sqrt(d) of the worked example (d = 4), whatever d is.
    scores = q @ k.T / 2.0
    if mask is not None:
        scores = jnp.where(mask, scores, -jnp.inf)
    return jax.nn.softmax(scores, axis=-1) @ v
