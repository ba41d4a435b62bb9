# replaces: challenge-solution
# fails: challenge-test
def pad_to_bucket(x, buckets):
    # Takes the first bucket that fits in the given order: right only for sorted buckets.
    n = x.shape[0]
    for b in buckets:
        if b >= n:
            return jnp.pad(x, (0, b - n))
    raise ValueError(f"length {n} is longer than the largest bucket {max(buckets)}")
