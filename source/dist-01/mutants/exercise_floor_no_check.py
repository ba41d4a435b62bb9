# replaces: exercise-solution
# fails: exercise-test
def local_shape(global_shape, mesh_shape, spec):
    # Floor division without the divisibility check: 7 rows over 2 devices "gives" 3 rows each.
    entries = list(spec) + [None] * (len(global_shape) - len(spec))
    shape = []
    for size, entry in zip(global_shape, entries):
        names = () if entry is None else (entry,) if isinstance(entry, str) else tuple(entry)
        pieces = 1
        for name in names:
            pieces *= mesh_shape[name]
        shape.append(size // pieces)
    return tuple(shape)
