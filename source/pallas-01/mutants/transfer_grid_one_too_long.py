# replaces: transfer-solution
# fails: transfer-test
def softmax_columns(x, block_cols):
    """The softmax of every column (over axis 0) of the 2-D float32 array x, as a Pallas kernel over
    blocks of block_cols columns that each hold all the rows."""
    # cols // block_cols + 1 programs: right when block_cols does not divide the width, one program too many when it
    # does. That program reads a block wholly outside x: interpret=True moves it back inside (full marks before the
    # program count of a width of 256), the TPU interpret mode raises "Out-of-bounds block index", a TPU v5e halted.
    rows, cols = x.shape

    def kernel(x_ref, o_ref):
        block = x_ref[...]
        e = jnp.exp(block - jnp.max(block, axis=0, keepdims=True))
        o_ref[...] = e / jnp.sum(e, axis=0, keepdims=True)

    spec = pl.BlockSpec((rows, block_cols), lambda j: (0, j))
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(cols // block_cols + 1,),
                          in_specs=[spec], out_specs=spec, interpret=INTERPRET)(x)
