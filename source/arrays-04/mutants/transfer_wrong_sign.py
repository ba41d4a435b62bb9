# replaces: transfer-solution
# fails: transfer-test
def sparse_sgd_step(table, rows, row_grads, learning_rate):
    # Gradient ascent: adds the gradient instead of subtracting it.
    return table.at[rows].add(learning_rate * row_grads)
