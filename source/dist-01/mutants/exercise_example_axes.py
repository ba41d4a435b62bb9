# replaces: exercise-solution
# fails: exercise-test
def local_shape(global_shape, mesh_shape, spec):
    # Typed in from the example: every name is looked up as if the mesh were {"x": 2, "y": 4},
    # and a missing name counts as 1.
    entries = list(spec) + [None] * (len(global_shape) - len(spec))
    shape = []
    for size, entry in zip(global_shape, entries):
        names = () if entry is None else (entry,) if isinstance(entry, str) else tuple(entry)
        pieces = 1
        for name in names:
            pieces *= {"x": 2, "y": 4}.get(name, 1)
        if size % pieces:
            raise ValueError(f"a dimension of size {size} does not split into {pieces} pieces")
        shape.append(size // pieces)
    return tuple(shape)
