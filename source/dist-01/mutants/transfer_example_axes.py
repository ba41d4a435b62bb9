# replaces: transfer-solution
# fails: transfer-test
def shard_batch(batch, mesh):
    # Typed in from the example: P(("x", "y")) and 8 devices, whatever mesh it is given.
    batch = np.asarray(batch)
    n = batch.shape[0]
    extra = -n % 8
    padded = np.pad(batch, [(0, extra)] + [(0, 0)] * (batch.ndim - 1))
    mask = np.arange(n + extra) < n
    sharding = NamedSharding(mesh, P(("x", "y")))
    return jax.device_put(padded, sharding), jax.device_put(mask, sharding)
