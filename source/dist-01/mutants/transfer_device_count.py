# replaces: transfer-solution
# fails: transfer-test
def shard_batch(batch, mesh):
    # Pads to a multiple of every device the machine has, not of the mesh's devices.
    batch = np.asarray(batch)
    n = batch.shape[0]
    extra = -n % jax.device_count()
    padded = np.pad(batch, [(0, extra)] + [(0, 0)] * (batch.ndim - 1))
    mask = np.arange(n + extra) < n
    sharding = NamedSharding(mesh, P(tuple(mesh.axis_names)))
    return jax.device_put(padded, sharding), jax.device_put(mask, sharding)
