# replaces: practice-solution
# fails: practice-test
def online_softmax_stats(x, block):
    # cols // block blocks: the last, shorter block is dropped.
    rows, cols = x.shape
    m = jnp.full((rows,), -jnp.inf, jnp.float32)
    l = jnp.zeros((rows,), jnp.float32)
    ms, ls = [], []
    for b in range(cols // block):
        chunk = x[:, b * block:(b + 1) * block]
        m_new = jnp.maximum(m, chunk.max(axis=1))
        l = jnp.exp(m - m_new) * l + jnp.exp(chunk - m_new[:, None]).sum(axis=1)
        m = m_new
        ms.append(m)
        ls.append(l)
    return jnp.stack(ms), jnp.stack(ls)
