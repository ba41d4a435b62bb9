# replaces: practice-solution
# fails: practice-test
def call_on_row_blocks(kernel, x, block_rows):
    # Every program reads block (0, 0) and writes its own block: each output block repeats the first rows.
    rows, cols = x.shape
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(pl.cdiv(rows, block_rows),),
                          in_specs=[pl.BlockSpec((block_rows, cols), lambda i: (0, 0))],
                          out_specs=pl.BlockSpec((block_rows, cols), lambda i: (i, 0)), interpret=INTERPRET)(x)
