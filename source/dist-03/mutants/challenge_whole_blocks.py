# replaces: challenge-solution
# fails: challenge-test
def ring_reduce_scatter(x, axis_name):
    """Called inside jax.shard_map on n devices along axis_name: chunk axis_index(axis_name) of the sum of x
    over those devices, x.shape[0] // n rows (what jax.lax.psum_scatter(x, axis_name, tiled=True) returns),
    computed with jax.lax.ppermute alone, in n - 1 messages of one chunk each."""
    # Passes whole blocks around the ring (the practice's all-reduce) and keeps one chunk at the end:
    # the right values, but every message is n times larger than it needs to be.
    n = jax.lax.axis_size(axis_name)
    ring = [(i, (i + 1) % n) for i in range(n)]
    total, passing = x, x
    for _ in range(n - 1):
        passing = jax.lax.ppermute(passing, axis_name, perm=ring)
        total = total + passing
    chunks = total.reshape(n, x.shape[0] // n, *x.shape[1:])
    return chunks[jax.lax.axis_index(axis_name)]
