# replaces: practice-confusion-solution
# fails: practice-confusion-test
def confusion_matrix(labels, predictions, num_classes):
    # Counts in float32: the right numbers, as floats.
    return jnp.zeros((num_classes, num_classes)).at[labels, predictions].add(1)
