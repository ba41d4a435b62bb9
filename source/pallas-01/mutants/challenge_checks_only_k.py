# replaces: challenge-solution
# fails: challenge-test
def matmul(x, y, bm, bk, bn):
    """x @ y for float32 x (M, K) and y (K, N) as a Pallas kernel over a (M // bm, N // bn, K // bk) grid,
    accumulating in the output block over the last grid axis. Raise ValueError unless bm, bk, bn divide M, K, N."""
    # Checks K only: for M = 20 and bm = 8 (or N = 200 and bn = 128) the grid drops the rows (columns) of the
    # partial block silently, and they come back unwritten. Full marks on a TPU too, before M and N were tested.
    (m, k), (k2, n) = x.shape, y.shape
    if k % bk:
        raise ValueError(f"bk = {bk} must divide K = {k}")

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
