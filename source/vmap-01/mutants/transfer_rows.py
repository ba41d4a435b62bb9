# replaces: transfer-solution
# fails: transfer-test
def rescale_columns(table):
    # Maps over axis 0: rescales each time step across the sensors instead of each sensor over time.
    return jax.vmap(rescale)(table)
