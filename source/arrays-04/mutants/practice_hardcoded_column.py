# replaces: practice-solution
# fails: practice-test
def set_last_column(matrix, value):
    # Right only for 3 columns: index 2 is the last column of the example, not of every matrix.
    return matrix.at[:, 2].set(value)
