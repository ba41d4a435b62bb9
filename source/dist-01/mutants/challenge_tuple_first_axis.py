# replaces: challenge-solution
# fails: challenge-test
def pad_to_divisible(x, mesh_shape, spec):
    # Reads only the first name of a tuple entry: P(("data", "model")) pads for data alone.
    entries = list(spec) + [None] * (x.ndim - len(spec))
    widths = []
    for size, entry in zip(x.shape, entries):
        if entry is None:
            pieces = 1
        elif isinstance(entry, str):
            pieces = mesh_shape[entry]
        else:
            pieces = mesh_shape[entry[0]]
        widths.append((0, -size % pieces))
    return jnp.pad(x, widths)
