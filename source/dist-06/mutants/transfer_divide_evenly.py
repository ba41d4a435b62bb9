# replaces: transfer-solution
# fails: transfer-test
def planned_bytes_per_device(target):
    """{device id: bytes} that restoring into the abstract `target` would store on each device."""
    # "The global size divided by the devices": ignores the copies of a replicated dimension.
    totals = {}
    for leaf in jax.tree.leaves(target):
        devices = leaf.sharding.device_set
        share = math.prod(leaf.shape) * np.dtype(leaf.dtype).itemsize // len(devices)
        for device in devices:
            totals[device.id] = totals.get(device.id, 0) + int(share)
    return totals
