# replaces: practice-solution
# fails: practice-test
def append_observation(table, row):
    # Right axis, wrong end: the new observation becomes the first row.
    table = jnp.asarray(table)
    row = jnp.asarray(row, dtype=table.dtype)
    return jnp.concatenate([row[None, :], table], axis=0)
