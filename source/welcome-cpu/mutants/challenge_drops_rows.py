# replaces: challenge-solution
# fails: challenge-test
def padded_column_mean(batch, mesh):
    # Drops the rows that do not fit instead of padding: loses data and changes the mean.
    batch = np.asarray(batch, dtype=np.float32)
    usable = batch.shape[0] - batch.shape[0] % mesh.shape["data"]
    kept = jax.device_put(batch[:usable], NamedSharding(mesh, P("data", None)))
    return kept, jnp.mean(kept, axis=0)
