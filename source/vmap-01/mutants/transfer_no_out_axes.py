# replaces: transfer-solution
# fails: transfer-test
def rescale_columns(table):
    # in_axes=1 but the default out_axes=0: the result is (sensors, time), the transpose.
    return jax.vmap(rescale, in_axes=1)(table)
