# replaces: practice-solution
# fails: practice-test
def set_last_column(matrix, value):
    # One index selects along axis 0: this replaces the last row, not the last column.
    return matrix.at[-1].set(value)
