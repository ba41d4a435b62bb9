# replaces: practice-solution
# fails: practice-test
def call_on_row_blocks(kernel, x, block_rows):
    # rows // block_rows programs: the rows of a partial last block are never written.
    rows, cols = x.shape
    spec = pl.BlockSpec((block_rows, cols), lambda i: (i, 0))
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(rows // block_rows,),
                          in_specs=[spec], out_specs=spec, interpret=INTERPRET)(x)
