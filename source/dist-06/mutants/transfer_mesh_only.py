# replaces: transfer-solution
# fails: transfer-test
def planned_bytes_per_device(target):
    """{device id: bytes} that restoring into the abstract `target` would store on each device."""
    # Reads the devices from the sharding's mesh: every NamedSharding has one, a single-device
    # sharding does not.
    totals = {}
    for leaf in jax.tree.leaves(target):
        block = math.prod(leaf.sharding.shard_shape(leaf.shape)) * np.dtype(leaf.dtype).itemsize
        for device in leaf.sharding.mesh.devices.flat:
            totals[device.id] = totals.get(device.id, 0) + int(block)
    return totals
