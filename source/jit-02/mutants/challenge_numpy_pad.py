# replaces: challenge-solution
# fails: challenge-test
def pad_to_bucket(x, buckets):
    # Pads with NumPy: fine for a concrete array, but np.pad cannot take a tracer under jax.jit.
    n = x.shape[0]
    fitting = [b for b in buckets if b >= n]
    if not fitting:
        raise ValueError(f"length {n} is longer than the largest bucket {max(buckets)}")
    return jnp.asarray(np.pad(x, (0, min(fitting) - n)))
