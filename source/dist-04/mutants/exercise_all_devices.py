# replaces: exercise-solution
# fails: exercise-test
def bytes_per_device(tree):
    """{device id: bytes of all the leaves' blocks stored on that device}, Python ints."""
    # Spreads the global size evenly over the machine's devices, whatever the layout.
    total = sum(int(leaf.nbytes) for leaf in jax.tree.leaves(tree))
    return {device.id: total // jax.device_count() for device in jax.devices()}
