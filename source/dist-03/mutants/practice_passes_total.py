# replaces: practice-solution
# fails: practice-test
def ring_allreduce(x, axis_name):
    """Called inside jax.shard_map: the sum of x over all devices along axis_name (what
    jax.lax.psum(x, axis_name) returns), computed with jax.lax.ppermute alone."""
    # Passes on the running total instead of the block just received: blocks are counted several
    # times from the second step on (right on 2 devices only).
    n = jax.lax.axis_size(axis_name)
    ring = [(i, (i + 1) % n) for i in range(n)]
    total = x
    for _ in range(n - 1):
        total = total + jax.lax.ppermute(total, axis_name, perm=ring)
    return total
