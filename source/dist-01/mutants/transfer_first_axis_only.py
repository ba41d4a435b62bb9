# replaces: transfer-solution
# fails: transfer-test
def shard_batch(batch, mesh):
    # Splits the batch over the first mesh axis only: each row block is replicated over the second.
    batch = np.asarray(batch)
    n = batch.shape[0]
    extra = -n % mesh.size
    padded = np.pad(batch, [(0, extra)] + [(0, 0)] * (batch.ndim - 1))
    mask = np.arange(n + extra) < n
    sharding = NamedSharding(mesh, P(mesh.axis_names[0]))
    return jax.device_put(padded, sharding), jax.device_put(mask, sharding)
