# replaces: challenge-solution
# fails: challenge-test
def pad_to_bucket(x, buckets):
    # Off by one at the boundary: a length equal to a bucket is sent to the next bucket.
    n = x.shape[0]
    fitting = [b for b in buckets if b > n]
    if not fitting:
        raise ValueError(f"length {n} is longer than the largest bucket {max(buckets)}")
    return jnp.pad(x, (0, min(fitting) - n))
