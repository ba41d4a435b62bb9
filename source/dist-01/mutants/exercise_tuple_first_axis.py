# replaces: exercise-solution
# fails: exercise-test
def local_shape(global_shape, mesh_shape, spec):
    # Reads only the first name of a tuple entry: P(("x", "y")) splits over x alone.
    entries = list(spec) + [None] * (len(global_shape) - len(spec))
    shape = []
    for size, entry in zip(global_shape, entries):
        if entry is None:
            pieces = 1
        elif isinstance(entry, str):
            pieces = mesh_shape[entry]
        else:
            pieces = mesh_shape[entry[0]]
        if size % pieces:
            raise ValueError(f"a dimension of size {size} does not split into {pieces} pieces")
        shape.append(size // pieces)
    return tuple(shape)
