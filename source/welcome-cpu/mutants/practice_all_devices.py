# replaces: practice-solution
# fails: practice-test
def place_rows(batch, mesh):
    # Counts every device JAX has, not the devices along the mesh's "data" axis.
    n_rows = batch.shape[0]
    n_devices = len(jax.devices())
    if n_rows % n_devices != 0:
        raise IndivisibleError(f"cannot split {n_rows} rows evenly over {n_devices} devices")
    return jax.device_put(batch, NamedSharding(mesh, P("data", None)))
