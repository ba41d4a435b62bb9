# replaces: practice-place-solution
# fails: practice-place-test
def place_committed(values, device):
    # "JAX arrays are float32": casts, so an int8 input comes back as float32.
    return jax.device_put(jnp.asarray(values, dtype=jnp.float32), device)
