# replaces: exercise-solution
# fails: exercise-test
import math


def local_shape(global_shape, mesh_shape, spec):
    # Divides every split dimension by the total number of devices, whatever axes it names.
    total = math.prod(mesh_shape.values())
    entries = list(spec) + [None] * (len(global_shape) - len(spec))
    shape = []
    for size, entry in zip(global_shape, entries):
        pieces = 1 if entry is None else total
        if size % pieces:
            raise ValueError(f"a dimension of size {size} does not split into {pieces} pieces")
        shape.append(size // pieces)
    return tuple(shape)
