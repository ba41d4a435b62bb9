# replaces: accumulate-solution
# fails: accumulate-test
def count_labels(labels, num_classes):
    # NumPy's np.add.at counts correctly, but only on host values: np.asarray cannot read a
    # traced array, so the function fails inside jax.jit.
    counts = np.zeros(num_classes, dtype=np.int32)
    np.add.at(counts, np.asarray(labels), 1)
    return jnp.asarray(counts)
