# replaces: exercise-solution
# fails: exercise-test
def column_sums(table):
    # Wrong axis: one total per row (observation) instead of per column.
    return jnp.sum(table, axis=1)
