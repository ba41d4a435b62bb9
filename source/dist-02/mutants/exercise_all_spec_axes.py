# replaces: exercise-solution
# fails: exercise-test
def per_device_batch(batch):
    """How many examples (entries of the leading axis) one device holds, as a Python int."""
    # Divides by every mesh axis named anywhere in the spec, not only those of the leading axis.
    sharding = batch.sharding
    if not hasattr(sharding, "spec"):
        return batch.shape[0]
    parts = 1
    for entry in sharding.spec:
        for name in (entry if isinstance(entry, tuple) else (entry,)):
            if name is not None:
                parts *= sharding.mesh.shape[name]
    return batch.shape[0] // parts
