# replaces: practice-attention-solution
# fails: practice-attention-test, challenge-test
def attention(q, k, v, mask=None):
    # Zeroes the masked weights after the softmax: the rows no longer sum to 1.
    weights = jax.nn.softmax(q @ k.T / jnp.sqrt(q.shape[-1]), axis=-1)
    if mask is not None:
        weights = weights * mask
    return weights @ v
