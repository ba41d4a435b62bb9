# replaces: challenge-solution
# fails: challenge-test
def is_batch_independent(transform, batch):
    # Transforms the whole batch twice and compares: always True, whatever the transform does.
    return bool(jnp.allclose(transform(batch), transform(batch), rtol=1e-5, atol=1e-6))
