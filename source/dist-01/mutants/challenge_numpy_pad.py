# replaces: challenge-solution
# fails: challenge-test
def pad_to_divisible(x, mesh_shape, spec):
    # np.pad converts x to a NumPy array: fine eagerly, a TracerArrayConversionError under jax.jit.
    entries = list(spec) + [None] * (x.ndim - len(spec))
    widths = []
    for size, entry in zip(x.shape, entries):
        names = () if entry is None else (entry,) if isinstance(entry, str) else tuple(entry)
        pieces = 1
        for name in names:
            pieces *= mesh_shape[name]
        widths.append((0, -size % pieces))
    return jnp.asarray(np.pad(x, widths))
