# replaces: transfer-solution
# fails: transfer-test
def attend_last(q, k, v):
    # The border one column too far left: each query loses its own key.
    tq, tk = q.shape[1], k.shape[1]
    return jax.nn.dot_product_attention(q, k, v, mask=jnp.tril(jnp.ones((tq, tk), dtype=bool), k=tk - tq - 1))
