# replaces: practice-solution
# fails: practice-test
def seen_counts(key, num_steps, n, batch_size):
    # jnp.bincount without length=n: the result ends at the largest row seen, and jit refuses it.
    rows = [batch_for_step(key, s, n, batch_size) for s in range(num_steps)]
    if not rows:
        return jnp.zeros(n, dtype=jnp.int32)
    return jnp.bincount(jnp.concatenate(rows))
