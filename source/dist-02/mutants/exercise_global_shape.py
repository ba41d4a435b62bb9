# replaces: exercise-solution
# fails: exercise-test
def per_device_batch(batch):
    """How many examples (entries of the leading axis) one device holds, as a Python int."""
    # The global batch size: x.shape is always the shape of the whole array, on any layout.
    return int(batch.shape[0])
