# replaces: transfer-solution
# fails: transfer-test
def softmax_columns(x, block_cols):
    """The softmax of every column (over axis 0) of the 2-D float32 array x, as a Pallas kernel over
    blocks of block_cols columns that each hold all the rows."""
    # Every program reads block (0, 0): each block of the output repeats the softmax of the first columns.
    rows, cols = x.shape

    def kernel(x_ref, o_ref):
        block = x_ref[...]
        e = jnp.exp(block - jnp.max(block, axis=0, keepdims=True))
        o_ref[...] = e / jnp.sum(e, axis=0, keepdims=True)

    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(pl.cdiv(cols, block_cols),),
                          in_specs=[pl.BlockSpec((rows, block_cols), lambda j: (0, 0))],
                          out_specs=pl.BlockSpec((rows, block_cols), lambda j: (0, j)), interpret=INTERPRET)(x)
