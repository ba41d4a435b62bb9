# replaces: exercise-solution
# fails: exercise-test
def zero_tail(values, count):
    # Off by one: starts the slice one entry too early, zeroing count + 1 entries.
    n = values.shape[0]
    return values.at[n - count - 1:].set(0)
