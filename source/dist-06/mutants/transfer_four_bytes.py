# replaces: transfer-solution
# fails: transfer-test
def planned_bytes_per_device(target):
    """{device id: bytes} that restoring into the abstract `target` would store on each device."""
    # Assumes 4 bytes per element, as for the lesson's float32 and int32 leaves.
    totals = {}
    for leaf in jax.tree.leaves(target):
        for device in leaf.sharding.device_set:
            totals[device.id] = totals.get(device.id, 0) + 4 * math.prod(leaf.sharding.shard_shape(leaf.shape))
    return totals
