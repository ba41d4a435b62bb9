# replaces: center-solution
# fails: center-test
def column_means(table):
    # Wrong axis: one mean per row (observation), shape (n, 1).
    return jnp.mean(table, axis=1, keepdims=True)


def center_columns(table):
    return table - column_means(table)
