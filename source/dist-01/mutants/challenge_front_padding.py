# replaces: challenge-solution
# fails: challenge-test
def pad_to_divisible(x, mesh_shape, spec):
    # Right amounts, wrong end: the zeros go BEFORE the data, shifting every real index.
    entries = list(spec) + [None] * (x.ndim - len(spec))
    widths = []
    for size, entry in zip(x.shape, entries):
        names = () if entry is None else (entry,) if isinstance(entry, str) else tuple(entry)
        pieces = 1
        for name in names:
            pieces *= mesh_shape[name]
        widths.append((-size % pieces, 0))
    return jnp.pad(x, widths)
