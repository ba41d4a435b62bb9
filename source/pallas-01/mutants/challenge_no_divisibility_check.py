# replaces: challenge-solution
# fails: challenge-test
def matmul(x, y, bm, bk, bn):
    """x @ y for float32 x (M, K) and y (K, N) as a Pallas kernel over a (M // bm, N // bn, K // bk) grid,
    accumulating in the output block over the last grid axis. Raise ValueError unless bm, bk, bn divide M, K, N."""
    # No precondition: for K = 300 and bk = 128 the grid has K // bk = 2 steps, and drops the last 44 of K silently.
    (m, k), (k2, n) = x.shape, y.shape

    def kernel(x_ref, y_ref, o_ref):
        @pl.when(pl.program_id(2) == 0)
        def _():
            o_ref[...] = jnp.zeros_like(o_ref)
        o_ref[...] += jnp.dot(x_ref[...], y_ref[...], preferred_element_type=jnp.float32)

    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct((m, n), jnp.float32),
        grid=(m // bm, n // bn, k // bk),
        in_specs=[pl.BlockSpec((bm, bk), lambda i, j, s: (i, s)), pl.BlockSpec((bk, bn), lambda i, j, s: (s, j))],
        out_specs=pl.BlockSpec((bm, bn), lambda i, j, s: (i, j)),
        interpret=INTERPRET,
    )(x, y)
