# replaces: accumulate-solution
# fails: accumulate-test
def count_labels(labels, num_classes):
    # NumPy's buffered fancy-index +=: each repeated label is counted only once.
    counts = np.zeros(num_classes, dtype=np.int32)
    counts[np.asarray(labels)] += 1
    return jnp.asarray(counts)
