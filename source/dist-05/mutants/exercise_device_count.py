# replaces: exercise-solution
# fails: exercise-test
def process_slice(global_batch, process_index, process_count):
    # Divides by the number of DEVICES: that is the rows per device, not the rows a process loads.
    if process_count < 1 or global_batch % process_count != 0:
        raise ValueError("uneven batch")
    if not 0 <= process_index < process_count:
        raise ValueError("process_index out of range")
    rows = global_batch // jax.device_count()
    return slice(process_index * rows, (process_index + 1) * rows)
