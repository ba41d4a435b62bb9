# replaces: practice-solution
# fails: practice-test
def apply_standardizer(batch, stats):
    # Like batch normalization in training mode: uses the batch's own statistics whenever it
    # has several rows, and the fitted ones only for a single row.
    batch = jnp.asarray(batch)
    mean, scale = stats
    if batch.ndim == 2 and batch.shape[0] > 1:
        mean = batch.mean(axis=0)
        std = batch.std(axis=0)
        scale = jnp.where(batch.max(axis=0) == batch.min(axis=0), 1.0, std)
    return (batch - mean) / scale
