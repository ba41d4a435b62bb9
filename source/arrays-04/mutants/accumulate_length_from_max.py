# replaces: accumulate-solution
# fails: accumulate-test
def count_labels(labels, num_classes):
    # Length taken from the largest label seen, not from num_classes: classes above it vanish.
    return jnp.zeros(int(labels.max()) + 1, dtype=jnp.int32).at[labels].add(1)
