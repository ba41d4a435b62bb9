# replaces: transfer-solution
# fails: transfer-test
def sparse_sgd_step(table, rows, row_grads, learning_rate):
    # np.add.at on a host copy accumulates repeated rows correctly, but a training step runs
    # under jax.jit, where np.array cannot read the traced table.
    new_table = np.array(table)
    np.add.at(new_table, np.asarray(rows), -learning_rate * np.asarray(row_grads))
    return jnp.asarray(new_table)
