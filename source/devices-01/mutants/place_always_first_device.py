# replaces: practice-place-solution
# fails: practice-place-test
def place_committed(values, device):
    # Commits, but always to the first device, whatever was asked.
    return jax.device_put(values, jax.devices()[0])
