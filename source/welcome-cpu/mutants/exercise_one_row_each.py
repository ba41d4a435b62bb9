# replaces: exercise-solution
# fails: exercise-test
def row_blocks(x):
    # Assumes every device holds exactly one row.
    blocks = []
    for shard in x.addressable_shards:
        start, _, _ = shard.index[0].indices(x.shape[0])
        blocks.append((start, start + 1, tuple(shard.data.shape)))
    return sorted(blocks)
