# replaces: exercise-solution
# fails: exercise-test
def bytes_per_device(tree):
    """{device id: bytes of all the leaves' blocks stored on that device}, Python ints."""
    # "nbytes divided by the devices": right for a leaf split over all its devices, but a
    # replicated leaf (or one copied over an unnamed mesh axis) is counted 8 (or 2) times too small.
    totals = {}
    for leaf in jax.tree.leaves(tree):
        devices = leaf.devices()
        for device in devices:
            totals[device.id] = totals.get(device.id, 0) + int(leaf.nbytes) // len(devices)
    return totals
