# replaces: practice-confusion-solution
# fails: practice-confusion-test
def confusion_matrix(labels, predictions, num_classes):
    # .set(1) instead of .add(1): a pair that occurs twice is still counted once.
    counts = jnp.zeros((num_classes, num_classes), dtype=jnp.int32)
    return counts.at[labels, predictions].set(1)
