# replaces: transfer-solution
# fails: transfer-test
# Scores without the 1/sqrt(head_dim) scale.
def windowed_attention(q, k, v, window):
    """q, k, v: (..., T, heads, head_dim) -> (..., T, heads, head_dim). Row t of each head reads the keys u
    with t - window < u <= t (window a Python int >= 1), masked before the softmax."""
    T, head_dim = q.shape[-3], q.shape[-1]
    scores = jnp.einsum("...qhd,...khd->...hqk", q, k)
    t, u = jnp.arange(T)[:, None], jnp.arange(T)[None, :]
    band = (u <= t) & (u > t - window)                                 # row t: columns t - window + 1 .. t
    weights = jax.nn.softmax(jnp.where(band, scores, -jnp.inf), axis=-1)
    return jnp.einsum("...hqk,...khd->...qhd", weights, v)
