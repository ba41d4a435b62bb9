# replaces: practice-confusion-solution
# fails: practice-confusion-test
def confusion_matrix(labels, predictions, num_classes):
    # Rows are the predictions and columns the true labels: the transpose of the convention.
    counts = jnp.zeros((num_classes, num_classes), dtype=jnp.int32)
    return counts.at[predictions, labels].add(1)
