# replaces: challenge-solution
# fails: challenge-test
def padded_column_mean(batch, mesh):
    # Puts the padding rows first, so the real rows no longer keep their positions.
    batch = np.asarray(batch, dtype=np.float32)
    n_rows, n_cols = batch.shape
    extra = (-n_rows) % mesh.shape["data"]
    padded_host = np.concatenate([np.zeros((extra, n_cols), dtype=np.float32), batch], axis=0)
    padded = jax.device_put(padded_host, NamedSharding(mesh, P("data", None)))
    return padded, padded.sum(axis=0) / n_rows
