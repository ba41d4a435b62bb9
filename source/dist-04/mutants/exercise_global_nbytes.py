# replaces: exercise-solution
# fails: exercise-test
def bytes_per_device(tree):
    """{device id: bytes of all the leaves' blocks stored on that device}, Python ints."""
    # Counts the GLOBAL size of every leaf on every device that holds part of it: right for a
    # replicated leaf, eight times too much for an FSDP-sharded one.
    totals = {}
    for leaf in jax.tree.leaves(tree):
        for device in leaf.devices():
            totals[device.id] = totals.get(device.id, 0) + int(leaf.nbytes)
    return totals
