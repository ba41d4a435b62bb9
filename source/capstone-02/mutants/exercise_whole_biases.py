# replaces: exercise-solution
# fails: exercise-test
# Splits every kernel right and leaves every bias whole.
def param_spec(path):
    """The PartitionSpec of the parameter at `path` (a tuple such as ('blocks', 0, 'attn', 'query', 'kernel'))
    on a mesh with axes ("data", "model"), Megatron-style: heads and MLP units split over "model"."""
    *_, layer, kind = path
    if kind != "kernel":
        return P()
    if layer in ("query", "key", "value", "fc1"):
        return P(None, "model")
    if layer in ("out", "fc2"):
        return P("model", None)
    return P()
