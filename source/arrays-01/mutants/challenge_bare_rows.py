# replaces: challenge-solution
# fails: challenge-test
def is_batch_independent(transform, batch):
    # Feeds bare rows batch[i] of shape (D,) instead of batches of one row, shape (1, D).
    together = transform(batch)
    one_at_a_time = jnp.stack([transform(batch[i]) for i in range(batch.shape[0])])
    if together.shape != one_at_a_time.shape:
        return False
    return bool(jnp.allclose(together, one_at_a_time, rtol=1e-5, atol=1e-6))
