# replaces: practice-solution
# fails: practice-test
def apply_standardizer(batch, stats):
    # Ignores the fitted statistics and re-fits on the batch being transformed.
    batch = jnp.asarray(batch)
    mean = batch.mean(axis=0)
    std = batch.std(axis=0)
    scale = jnp.where(batch.max(axis=0) == batch.min(axis=0), 1.0, std)
    return (batch - mean) / scale
