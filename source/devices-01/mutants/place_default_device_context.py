# replaces: practice-place-solution
# fails: practice-place-test
def place_committed(values, device):
    # Right device, but jnp.asarray under default_device does not commit the array.
    with jax.default_device(device):
        return jnp.asarray(values)
