# replaces: exercise-solution
# fails: exercise-test
# Splits the biases of out and fc2 as well, although each is added once, after the sum.
def param_spec(path):
    """The PartitionSpec of the parameter at `path` (a tuple such as ('blocks', 0, 'attn', 'query', 'kernel'))
    on a mesh with axes ("data", "model"), Megatron-style: heads and MLP units split over "model"."""
    *_, layer, kind = path
    if layer in ("query", "key", "value", "fc1"):
        return P(None, "model") if kind == "kernel" else P("model")
    if layer in ("out", "fc2"):
        return P("model", None) if kind == "kernel" else P("model")
    return P()
