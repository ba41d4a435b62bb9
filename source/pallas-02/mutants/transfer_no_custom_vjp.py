# replaces: transfer-solution
# fails: transfer-test
def pallas_heads(q, k, v, block):
    # flash_attention called directly: the forward pass works, jax.grad through the pallas_call does not.
    *batch, T, heads, head_dim = q.shape
    rows = lambda a: jnp.moveaxis(a, -2, -3).reshape(-1, T, head_dim)
    out = flash_attention(rows(q), rows(k), rows(v), block, block)
    return jnp.moveaxis(out.reshape(*batch, heads, T, head_dim), -3, -2)
