# replaces: center-solution
# fails: center-test
def column_means(table):
    # Drops the reduced axis: shape (m,) instead of (1, m).
    return jnp.mean(table, axis=0)


def center_columns(table):
    return table - column_means(table)
