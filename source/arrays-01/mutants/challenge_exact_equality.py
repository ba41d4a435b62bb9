# replaces: challenge-solution
# fails: challenge-test
def is_batch_independent(transform, batch):
    # Compares bit for bit instead of within rtol=1e-5, atol=1e-6.
    together = transform(batch)
    one_at_a_time = jnp.concatenate([transform(batch[i:i + 1]) for i in range(batch.shape[0])], axis=0)
    return bool(together.shape == one_at_a_time.shape and jnp.array_equal(together, one_at_a_time))
