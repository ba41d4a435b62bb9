# replaces: transfer-solution
# fails: transfer-test
def precision_recall(cm):
    # Divides each correct count by the total number of examples: shares of the data set, not rates per class.
    cm = jnp.asarray(cm, dtype=jnp.float32)
    share = jnp.diag(cm) / jnp.maximum(cm.sum(), 1.0)
    return {"precision": share, "recall": share}
