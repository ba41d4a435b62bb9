# replaces: challenge-solution
# fails: challenge-test
def pad_to_divisible(x, mesh_shape, spec):
    # Pads k - n % k: a whole extra block of zeros when the size already divides.
    entries = list(spec) + [None] * (x.ndim - len(spec))
    widths = []
    for size, entry in zip(x.shape, entries):
        names = () if entry is None else (entry,) if isinstance(entry, str) else tuple(entry)
        pieces = 1
        for name in names:
            pieces *= mesh_shape[name]
        widths.append((0, pieces - size % pieces if names else 0))
    return jnp.pad(x, widths)
