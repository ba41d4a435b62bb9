# replaces: exercise-solution
# fails: exercise-test
import math


def bytes_per_device(tree):
    """{device id: bytes of all the leaves' blocks stored on that device}, Python ints."""
    # Counts elements of each block and assumes float32, 4 bytes each: wrong for int8, bfloat16, float16.
    totals = {}
    for leaf in jax.tree.leaves(tree):
        for shard in leaf.addressable_shards:
            totals[shard.device.id] = totals.get(shard.device.id, 0) + 4 * math.prod(shard.data.shape)
    return totals
