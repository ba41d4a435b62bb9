# replaces: practice-confusion-solution
# fails: practice-confusion-test
def confusion_matrix(labels, predictions, num_classes):
    # Ignores num_classes and takes the size from the data: fails under jit, shrinks when a class is absent.
    size = int(jnp.maximum(labels.max(), predictions.max())) + 1
    counts = jnp.zeros((size, size), dtype=jnp.int32)
    return counts.at[labels, predictions].add(1)
