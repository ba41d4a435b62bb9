# replaces: transfer-solution
# fails: transfer-test
def precision_recall(cm):
    # Row sums and column sums swapped: what it calls precision is the recall, and the other way round.
    cm = jnp.asarray(cm, dtype=jnp.float32)
    correct = jnp.diag(cm)
    rows, columns = cm.sum(axis=1), cm.sum(axis=0)
    precision = jnp.where(rows > 0, correct / jnp.maximum(rows, 1.0), 0.0)
    recall = jnp.where(columns > 0, correct / jnp.maximum(columns, 1.0), 0.0)
    return {"precision": precision, "recall": recall}
