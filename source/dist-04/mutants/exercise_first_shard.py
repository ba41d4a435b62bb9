# replaces: exercise-solution
# fails: exercise-test
def bytes_per_device(tree):
    """{device id: bytes of all the leaves' blocks stored on that device}, Python ints."""
    # Reads one block per leaf and credits it to every device of the mesh of the FIRST leaf:
    # right when all leaves share one layout, wrong for a mixed tree or a subset of devices.
    leaves = jax.tree.leaves(tree)
    per_device = sum(int(leaf.addressable_shards[0].data.nbytes) for leaf in leaves)
    return {device.id: per_device for device in leaves[0].devices()}
