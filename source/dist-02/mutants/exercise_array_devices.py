# replaces: exercise-solution
# fails: exercise-test
def per_device_batch(batch):
    """How many examples (entries of the leading axis) one device holds, as a Python int."""
    # Divides by the devices the array lives on, ignoring replication over a mesh axis.
    return int(batch.shape[0] // len(batch.devices()))
