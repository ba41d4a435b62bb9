# replaces: transfer-solution
# fails: transfer-test
# Softmax over every key, then the weights outside the band zeroed and each row rescaled: equal up to rounding only.
def windowed_attention(q, k, v, window):
    """q, k, v: (..., T, heads, head_dim) -> (..., T, heads, head_dim). Row t of each head reads the keys u
    with t - window < u <= t (window a Python int >= 1), masked before the softmax."""
    T, head_dim = q.shape[-3], q.shape[-1]
    scores = jnp.einsum("...qhd,...khd->...hqk", q, k) / math.sqrt(head_dim)
    t, u = jnp.arange(T)[:, None], jnp.arange(T)[None, :]
    band = (u <= t) & (u > t - window)                                 # row t: columns t - window + 1 .. t
    weights = jnp.where(band, jax.nn.softmax(scores, axis=-1), 0.0)
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return jnp.einsum("...hqk,...khd->...qhd", weights, v)
