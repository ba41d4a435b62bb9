# replaces: challenge-solution
# fails: challenge-test
def is_batch_independent(transform, batch):
    # Compares only the first row: misses a transform that leaves row 0 alone.
    together = transform(batch)
    alone = transform(batch[:1])
    return bool(jnp.allclose(together[:1], alone, rtol=1e-5, atol=1e-6))
