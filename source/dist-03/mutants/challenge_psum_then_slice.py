# replaces: challenge-solution
# fails: challenge-test
def ring_reduce_scatter(x, axis_name):
    """Called inside jax.shard_map on n devices along axis_name: chunk axis_index(axis_name) of the sum of x
    over those devices, x.shape[0] // n rows (what jax.lax.psum_scatter(x, axis_name, tiled=True) returns),
    computed with jax.lax.ppermute alone, in n - 1 messages of one chunk each."""
    # Sums everything everywhere, then keeps one chunk: n times the data an all-reduce needs to move.
    n = jax.lax.axis_size(axis_name)
    chunks = jax.lax.psum(x, axis_name).reshape(n, x.shape[0] // n, *x.shape[1:])
    return chunks[jax.lax.axis_index(axis_name)]
