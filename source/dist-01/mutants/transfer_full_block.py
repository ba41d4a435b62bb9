# replaces: transfer-solution
# fails: transfer-test
def shard_batch(batch, mesh):
    # Pads mesh.size - n % mesh.size rows: 8 padding rows for a batch that already divides.
    batch = np.asarray(batch)
    n = batch.shape[0]
    extra = mesh.size - n % mesh.size
    padded = np.pad(batch, [(0, extra)] + [(0, 0)] * (batch.ndim - 1))
    mask = np.arange(n + extra) < n
    sharding = NamedSharding(mesh, P(tuple(mesh.axis_names)))
    return jax.device_put(padded, sharding), jax.device_put(mask, sharding)
