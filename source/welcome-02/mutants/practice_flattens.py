# replaces: practice-solution
# fails: practice-test
def append_observation(table, row):
    # jnp.append without an axis flattens: a length n*m + m vector, not an (n + 1, m) table.
    return jnp.append(table, row)
