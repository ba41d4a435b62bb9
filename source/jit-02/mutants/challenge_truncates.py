# replaces: challenge-solution
# fails: challenge-test
def pad_to_bucket(x, buckets):
    # Cuts a too-long input down to the largest bucket instead of refusing it: data is lost.
    n = x.shape[0]
    fitting = [b for b in buckets if b >= n]
    if not fitting:
        return x[: max(buckets)]
    return jnp.pad(x, (0, min(fitting) - n))
