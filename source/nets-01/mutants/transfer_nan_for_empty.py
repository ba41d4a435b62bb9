# replaces: transfer-solution
# fails: transfer-test
def precision_recall(cm):
    # Right wherever a class has examples and predictions; an empty row or column gives 0 / 0 = nan.
    cm = jnp.asarray(cm, dtype=jnp.float32)
    correct = jnp.diag(cm)
    return {"precision": correct / cm.sum(axis=0), "recall": correct / cm.sum(axis=1)}
