# replaces: practice-solution
# fails: practice-test
def call_on_row_blocks(kernel, x, block_rows):
    # rows // block_rows + 1 programs: right when block_rows does not divide the rows, one program too many when it
    # does (16 rows in blocks of 8: a third program reads rows 16 to 23, wholly outside x).
    rows, cols = x.shape
    spec = pl.BlockSpec((block_rows, cols), lambda i: (i, 0))
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(rows // block_rows + 1,),
                          in_specs=[spec], out_specs=spec, interpret=INTERPRET)(x)
