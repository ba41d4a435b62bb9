# replaces: exercise-solution
# fails: exercise-test
# The wrong mesh axis: heads and MLP units split over "data", where the batch already is.
def param_spec(path):
    """The PartitionSpec of the parameter at `path` (a tuple such as ('blocks', 0, 'attn', 'query', 'kernel'))
    on a mesh with axes ("data", "model"), Megatron-style: heads and MLP units split over "model"."""
    *_, layer, kind = path
    if layer in ("query", "key", "value", "fc1"):
        return P(None, "data") if kind == "kernel" else P("data")
    if layer in ("out", "fc2") and kind == "kernel":
        return P("data", None)
    return P()
