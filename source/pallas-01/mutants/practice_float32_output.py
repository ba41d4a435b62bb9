# replaces: practice-solution
# fails: practice-test
def call_on_row_blocks(kernel, x, block_rows):
    # The output is always float32, whatever the dtype of x.
    rows, cols = x.shape
    spec = pl.BlockSpec((block_rows, cols), lambda i: (i, 0))
    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(x.shape, jnp.float32), grid=(pl.cdiv(rows, block_rows),),
                          in_specs=[spec], out_specs=spec, interpret=INTERPRET)(x)
