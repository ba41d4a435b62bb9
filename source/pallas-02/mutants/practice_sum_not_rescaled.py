# replaces: practice-solution
# fails: practice-test
def online_softmax_stats(x, block):
    # The old sum is not multiplied by exp(m - m_new): each block's terms are against a different maximum.
    rows, cols = x.shape
    m = jnp.full((rows,), -jnp.inf, jnp.float32)
    l = jnp.zeros((rows,), jnp.float32)
    ms, ls = [], []
    for start in range(0, cols, block):
        chunk = x[:, start:start + block]
        m = jnp.maximum(m, chunk.max(axis=1))
        l = l + jnp.exp(chunk - m[:, None]).sum(axis=1)
        ms.append(m)
        ls.append(l)
    return jnp.stack(ms), jnp.stack(ls)
