# replaces: practice-place-solution
# fails: practice-place-test
def place_committed(values, device):
    # device_put without a device: the default device, and not committed.
    return jax.device_put(values)
