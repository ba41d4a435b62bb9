# replaces: transfer-solution
# fails: transfer-test
def planned_bytes_per_device(target):
    """{device id: bytes} that restoring into the abstract `target` would store on each device."""
    # Counts the whole leaf on every device it touches: right only for replicated leaves.
    totals = {}
    for leaf in jax.tree.leaves(target):
        for device in leaf.sharding.device_set:
            totals[device.id] = totals.get(device.id, 0) + int(math.prod(leaf.shape) * np.dtype(leaf.dtype).itemsize)
    return totals
