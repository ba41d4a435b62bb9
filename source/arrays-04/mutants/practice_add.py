# replaces: practice-solution
# fails: practice-test
def set_last_column(matrix, value):
    # add instead of set: the old column values still contribute.
    return matrix.at[:, -1].add(value)
