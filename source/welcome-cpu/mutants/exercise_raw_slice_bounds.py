# replaces: exercise-solution
# fails: exercise-test
def row_blocks(x):
    # Reads slice.start / slice.stop directly: for an axis that is not split they are None.
    blocks = []
    for shard in x.addressable_shards:
        rows = shard.index[0]
        blocks.append((rows.start, rows.stop, tuple(shard.data.shape)))
    return sorted(blocks, key=lambda block: (block[0] or 0, block[1] or 0))
