# replaces: challenge-solution
# fails: challenge-test
def padded_column_mean(batch, mesh):
    # size - n % size adds a whole extra block of padding when n already divides.
    batch = np.asarray(batch, dtype=np.float32)
    n_rows, n_cols = batch.shape
    size = mesh.shape["data"]
    extra = size - n_rows % size
    padded_host = np.concatenate([batch, np.zeros((extra, n_cols), dtype=np.float32)], axis=0)
    padded = jax.device_put(padded_host, NamedSharding(mesh, P("data", None)))
    return padded, padded.sum(axis=0) / n_rows
