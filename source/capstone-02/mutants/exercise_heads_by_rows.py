# replaces: exercise-solution
# fails: exercise-test
# The wrong axis: query, key and value split by rows (their inputs), like out; their biases whole.
def param_spec(path):
    """The PartitionSpec of the parameter at `path` (a tuple such as ('blocks', 0, 'attn', 'query', 'kernel'))
    on a mesh with axes ("data", "model"), Megatron-style: heads and MLP units split over "model"."""
    *_, layer, kind = path
    if layer == "fc1":
        return P(None, "model") if kind == "kernel" else P("model")
    if layer in ("query", "key", "value", "out", "fc2") and kind == "kernel":
        return P("model", None)
    return P()
