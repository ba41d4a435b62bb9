# replaces: exercise-solution
# fails: exercise-test
def per_device_batch(batch):
    """How many examples (entries of the leading axis) one device holds, as a Python int."""
    # The examples divided by the number of DISTINCT blocks: right for a batch split along its
    # leading axis, wrong when another axis is split (the blocks differ, the rows do not).
    blocks = {tuple((s.start, s.stop) for s in shard.index) for shard in batch.addressable_shards}
    return batch.shape[0] // len(blocks)
