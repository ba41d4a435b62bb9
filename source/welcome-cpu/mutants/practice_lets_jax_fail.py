# replaces: practice-solution
# fails: practice-test
def place_rows(batch, mesh):
    # No check of its own: on an Explicit mesh JAX raises a plain ValueError.
    return jax.device_put(batch, NamedSharding(mesh, P("data", None)))
