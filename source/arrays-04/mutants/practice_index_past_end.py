# replaces: practice-solution
# fails: practice-test
def set_last_column(matrix, value):
    # Off by one: column c does not exist, and JAX silently drops the out-of-bounds update.
    return matrix.at[:, matrix.shape[1]].set(value)
