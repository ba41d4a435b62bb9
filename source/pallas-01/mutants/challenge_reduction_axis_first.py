# replaces: challenge-solution
# fails: challenge-test
def matmul(x, y, bm, bk, bn):
    """x @ y for float32 x (M, K) and y (K, N) as a Pallas kernel over a (M // bm, N // bn, K // bk) grid,
    accumulating in the output block over the last grid axis. Raise ValueError unless bm, bk, bn divide M, K, N."""
    # The reduction axis first: grid (K // bk, M // bm, N // bn), zeroing at program_id(0) == 0. interpret=True gives
    # the right product; a TPU leaves an output block between its visits (6108 of 6144 entries wrong on a v5e), and
    # the TPU interpret mode stops with "Revisited block ... of output 0 in iteration (1, 0, 0)".
    (m, k), (k2, n) = x.shape, y.shape
    if k != k2 or m % bm or k % bk or n % bn:
        raise ValueError(f"blocks ({bm}, {bk}) and ({bk}, {bn}) must divide x {x.shape} and y {y.shape}")

    def kernel(x_ref, y_ref, o_ref):
        @pl.when(pl.program_id(0) == 0)
        def _():
            o_ref[...] = jnp.zeros_like(o_ref)
        o_ref[...] += jnp.dot(x_ref[...], y_ref[...], preferred_element_type=jnp.float32)

    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct((m, n), jnp.float32),
        grid=(k // bk, m // bm, n // bn),
        in_specs=[pl.BlockSpec((bm, bk), lambda s, i, j: (i, s)), pl.BlockSpec((bk, bn), lambda s, i, j: (s, j))],
        out_specs=pl.BlockSpec((bm, bn), lambda s, i, j: (i, j)),
        interpret=INTERPRET,
    )(x, y)
