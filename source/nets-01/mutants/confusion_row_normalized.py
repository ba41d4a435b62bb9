# replaces: practice-confusion-solution
# fails: practice-confusion-test
def confusion_matrix(labels, predictions, num_classes):
    # Returns rates per true class (each row divided by its sum) instead of counts.
    counts = jnp.zeros((num_classes, num_classes), dtype=jnp.float32).at[labels, predictions].add(1.0)
    return counts / jnp.maximum(counts.sum(axis=1, keepdims=True), 1.0)
