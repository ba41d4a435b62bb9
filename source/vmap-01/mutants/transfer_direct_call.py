# replaces: transfer-solution
# fails: transfer-test
def rescale_columns(table):
    # No vmap: min and max of the WHOLE table, shared by every sensor.
    return rescale(table)
