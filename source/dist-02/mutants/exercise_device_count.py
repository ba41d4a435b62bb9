# replaces: exercise-solution
# fails: exercise-test
import jax


def per_device_batch(batch):
    """How many examples (entries of the leading axis) one device holds, as a Python int."""
    # Divides by the machine's device count: right only when the batch is split over every device.
    return int(batch.shape[0] // jax.device_count())
