# replaces: transfer-solution
# fails: transfer-test
def shard_batch(batch, mesh):
    # Places the batch but not the mask: the mask stays on the default device only.
    batch = np.asarray(batch)
    n = batch.shape[0]
    extra = -n % mesh.size
    padded = np.pad(batch, [(0, extra)] + [(0, 0)] * (batch.ndim - 1))
    mask = jnp.arange(n + extra) < n
    return jax.device_put(padded, NamedSharding(mesh, P(tuple(mesh.axis_names)))), mask
