# replaces: practice-solution
# fails: practice-test
def append_observation(table, row):
    # Treats the new observation as a new column: joins along axis 1.
    table = jnp.asarray(table)
    row = jnp.asarray(row, dtype=table.dtype)
    return jnp.concatenate([table, row[:, None]], axis=1)
