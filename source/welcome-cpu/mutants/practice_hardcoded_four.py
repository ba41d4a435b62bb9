# replaces: practice-solution
# fails: practice-test
def place_rows(batch, mesh):
    # Hard-codes four devices instead of reading the size of the mesh's "data" axis.
    n_rows = batch.shape[0]
    if n_rows % 4 != 0:
        raise IndivisibleError(f"cannot split {n_rows} rows evenly over 4 devices on mesh axis 'data'")
    return jax.device_put(batch, NamedSharding(mesh, P("data", None)))
