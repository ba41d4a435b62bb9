# replaces: accumulate-solution
# fails: accumulate-test
def count_labels(labels, num_classes):
    # set instead of add: a repeated label is marked present once instead of counted.
    return jnp.zeros(num_classes, dtype=jnp.int32).at[labels].set(1)
