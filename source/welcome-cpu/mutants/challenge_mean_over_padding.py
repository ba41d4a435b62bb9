# replaces: challenge-solution
# fails: challenge-test
def padded_column_mean(batch, mesh):
    # Pads correctly, but the mean counts the padding rows.
    batch = np.asarray(batch, dtype=np.float32)
    n_rows, n_cols = batch.shape
    extra = (-n_rows) % mesh.shape["data"]
    padded_host = np.concatenate([batch, np.zeros((extra, n_cols), dtype=np.float32)], axis=0)
    padded = jax.device_put(padded_host, NamedSharding(mesh, P("data", None)))
    return padded, jnp.mean(padded, axis=0)
