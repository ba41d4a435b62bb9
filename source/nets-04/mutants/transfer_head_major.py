# replaces: transfer-solution
# fails: transfer-test
def attend_last(q, k, v):
    # Moves the heads in front of time, as split_heads does, before calling a (B, T, N, H) function.
    tq, tk = q.shape[1], k.shape[1]
    mask = jnp.tril(jnp.ones((tq, tk), dtype=bool), k=tk - tq)
    q, k, v = (a.transpose(0, 2, 1, 3) for a in (q, k, v))
    return jax.nn.dot_product_attention(q, k, v, mask=mask).transpose(0, 2, 1, 3)
