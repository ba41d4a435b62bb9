# replaces: exercise-solution
# fails: exercise-test
def process_slice(global_batch, process_index, process_count):
    # Every process_count-th row: the right number of rows, but not the consecutive block the
    # process's devices hold.
    if process_count < 1 or global_batch % process_count != 0:
        raise ValueError("uneven batch")
    if not 0 <= process_index < process_count:
        raise ValueError("process_index out of range")
    return slice(process_index, global_batch, process_count)
