# replaces: challenge-solution
# fails: challenge-test
import math


def pad_to_divisible(x, mesh_shape, spec):
    # Pads every split dimension to a multiple of the total device count, not of its own axes.
    total = math.prod(mesh_shape.values())
    entries = list(spec) + [None] * (x.ndim - len(spec))
    widths = [(0, 0) if entry is None else (0, -size % total) for size, entry in zip(x.shape, entries)]
    return jnp.pad(x, widths)
