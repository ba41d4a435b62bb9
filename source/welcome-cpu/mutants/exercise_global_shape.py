# replaces: exercise-solution
# fails: exercise-test
def row_blocks(x):
    # Reports the global shape x.shape instead of the shard's local shape.
    blocks = []
    for shard in x.addressable_shards:
        start, stop, _ = shard.index[0].indices(x.shape[0])
        blocks.append((start, stop, tuple(x.shape)))
    return sorted(blocks)
