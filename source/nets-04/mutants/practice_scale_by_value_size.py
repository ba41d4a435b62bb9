# replaces: practice-attention-solution
# fails: practice-attention-test
def attention(q, k, v, mask=None):
    # Scales by the square root of the value size dv instead of the query/key size d.
    scores = q @ k.T / jnp.sqrt(v.shape[-1])
    if mask is not None:
        scores = jnp.where(mask, scores, -jnp.inf)
    return jax.nn.softmax(scores, axis=-1) @ v
