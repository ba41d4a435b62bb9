# replaces: transfer-solution
# fails: transfer-test
def shard_batch(batch, mesh):
    # Both axes, but in reverse order: P(("y", "x")). Same shapes, rows on other devices.
    batch = np.asarray(batch)
    n = batch.shape[0]
    extra = -n % mesh.size
    padded = np.pad(batch, [(0, extra)] + [(0, 0)] * (batch.ndim - 1))
    mask = np.arange(n + extra) < n
    sharding = NamedSharding(mesh, P(tuple(reversed(mesh.axis_names))))
    return jax.device_put(padded, sharding), jax.device_put(mask, sharding)
