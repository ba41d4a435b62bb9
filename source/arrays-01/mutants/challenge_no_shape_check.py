# replaces: challenge-solution
# fails: challenge-test
def is_batch_independent(transform, batch):
    # Leaves the shapes to jnp.allclose, which broadcasts (1, D) against (M, D).
    together = transform(batch)
    one_at_a_time = jnp.concatenate([transform(batch[i:i + 1]) for i in range(batch.shape[0])], axis=0)
    return bool(jnp.allclose(together, one_at_a_time, rtol=1e-5, atol=1e-6))
