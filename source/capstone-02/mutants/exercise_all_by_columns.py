# replaces: exercise-solution
# fails: exercise-test
# Every matrix split by columns: out and fc2 too, and their biases with them.
def param_spec(path):
    """The PartitionSpec of the parameter at `path` (a tuple such as ('blocks', 0, 'attn', 'query', 'kernel'))
    on a mesh with axes ("data", "model"), Megatron-style: heads and MLP units split over "model"."""
    *_, layer, kind = path
    if layer in ("query", "key", "value", "fc1", "out", "fc2"):
        return P(None, "model") if kind == "kernel" else P("model")
    return P()
