# replaces: exercise-solution
# fails: exercise-test
def process_slice(global_batch, process_index, process_count):
    # No checks: an uneven batch silently drops its last rows, a bad index selects nothing.
    rows = global_batch // process_count
    return slice(process_index * rows, (process_index + 1) * rows)
