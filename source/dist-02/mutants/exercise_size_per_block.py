# replaces: exercise-solution
# fails: exercise-test
def per_device_batch(batch):
    """How many examples (entries of the leading axis) one device holds, as a Python int."""
    # Elements of one block divided by the features of a row: the global row width, so a block
    # whose columns are split counts too few rows.
    block = batch.sharding.shard_shape(batch.shape)
    return int(np.prod(block)) // int(np.prod(batch.shape[1:]))
