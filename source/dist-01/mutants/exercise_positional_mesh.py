# replaces: exercise-solution
# fails: exercise-test
def local_shape(global_shape, mesh_shape, spec):
    # Matches spec entries to mesh axes by POSITION, not by name: dimension i is divided by the
    # i-th mesh axis whenever its entry is not None. Right for P("x", "y") on {"x": 2, "y": 4}.
    sizes = list(mesh_shape.values())
    entries = list(spec) + [None] * (len(global_shape) - len(spec))
    shape = []
    for i, (size, entry) in enumerate(zip(global_shape, entries)):
        pieces = 1 if entry is None else sizes[i % len(sizes)]
        if size % pieces:
            raise ValueError(f"a dimension of size {size} does not split into {pieces} pieces")
        shape.append(size // pieces)
    return tuple(shape)
