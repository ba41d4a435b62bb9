# replaces: exercise-solution
# fails: exercise-test
def zero_tail(values, count):
    # Starts the slice at `count` instead of n - count: right only when n == 2 * count, as in
    # the prompt's zero_tail(x, 2) on four entries.
    return values.at[count:].set(0)
