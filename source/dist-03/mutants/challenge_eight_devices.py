# replaces: challenge-solution
# fails: challenge-test
def ring_reduce_scatter(x, axis_name):
    """Called inside jax.shard_map on n devices along axis_name: chunk axis_index(axis_name) of the sum of x
    over those devices, x.shape[0] // n rows (what jax.lax.psum_scatter(x, axis_name, tiled=True) returns),
    computed with jax.lax.ppermute alone, in n - 1 messages of one chunk each."""
    # Hard-codes the lesson's 8 devices: right on that mesh, wrong on any ring of another size.
    n = 8
    me = jax.lax.axis_index(axis_name)
    ring = [(i, (i + 1) % n) for i in range(n)]
    chunks = x.reshape(n, x.shape[0] // n, *x.shape[1:])
    running = chunks[(me - 1) % n]
    for s in range(1, n):
        running = jax.lax.ppermute(running, axis_name, perm=ring) + chunks[(me - s - 1) % n]
    return running
