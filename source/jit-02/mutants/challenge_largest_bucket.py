# replaces: challenge-solution
# fails: challenge-test
def pad_to_bucket(x, buckets):
    # Always pads to the largest bucket: one shape, but far more padding than needed.
    n = x.shape[0]
    if n > max(buckets):
        raise ValueError(f"length {n} is longer than the largest bucket {max(buckets)}")
    return jnp.pad(x, (0, max(buckets) - n))
