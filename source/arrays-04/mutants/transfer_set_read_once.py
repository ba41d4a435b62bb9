# replaces: transfer-solution
# fails: transfer-test
def sparse_sgd_step(table, rows, row_grads, learning_rate):
    # Read-modify-write with set: a token repeated in the batch keeps only one of its updates.
    return table.at[rows].set(table[rows] - learning_rate * row_grads)
