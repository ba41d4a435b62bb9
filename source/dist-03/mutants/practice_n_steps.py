# replaces: practice-solution
# fails: practice-test
def ring_allreduce(x, axis_name):
    """Called inside jax.shard_map: the sum of x over all devices along axis_name (what
    jax.lax.psum(x, axis_name) returns), computed with jax.lax.ppermute alone."""
    # n steps instead of n - 1: the last step brings the device's own block back, added twice.
    n = jax.lax.axis_size(axis_name)
    ring = [(i, (i + 1) % n) for i in range(n)]
    total, passing = x, x
    for _ in range(n):
        passing = jax.lax.ppermute(passing, axis_name, perm=ring)
        total = total + passing
    return total
