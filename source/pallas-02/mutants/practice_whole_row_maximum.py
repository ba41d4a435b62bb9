# replaces: practice-solution
# fails: practice-test
def online_softmax_stats(x, block):
    # The maximum of the whole row from the start: right at the end, not the running statistics.
    rows, cols = x.shape
    m = x.max(axis=1)
    l = jnp.zeros((rows,), jnp.float32)
    ms, ls = [], []
    for start in range(0, cols, block):
        l = l + jnp.exp(x[:, start:start + block] - m[:, None]).sum(axis=1)
        ms.append(m)
        ls.append(l)
    return jnp.stack(ms), jnp.stack(ls)
