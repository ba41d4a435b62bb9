# replaces: transfer-solution
# fails: transfer-test
def softmax_columns(x, block_cols):
    """The softmax of every column (over axis 0) of the 2-D float32 array x, as a Pallas kernel over
    blocks of block_cols columns that each hold all the rows."""
    # No maximum subtracted: exp overflows for logits above 88.7.
    rows, cols = x.shape

    def kernel(x_ref, o_ref):
        block = x_ref[...]
        e = jnp.exp(block)
        o_ref[...] = e / jnp.sum(e, axis=0, keepdims=True)

    spec = pl.BlockSpec((rows, block_cols), lambda j: (0, j))
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(pl.cdiv(cols, block_cols),),
                          in_specs=[spec], out_specs=spec, interpret=INTERPRET)(x)
