# replaces: exercise-solution
# fails: exercise-test
def process_slice(global_batch, process_index, process_count):
    # Asks JAX for the process count instead of using the argument: right in a worker, wrong for
    # any other layout (this kernel is 1 process, so every process gets the whole batch).
    if process_count < 1 or global_batch % process_count != 0:
        raise ValueError("uneven batch")
    if not 0 <= process_index < process_count:
        raise ValueError("process_index out of range")
    rows = global_batch // jax.process_count()
    return slice(process_index * rows, (process_index + 1) * rows)
