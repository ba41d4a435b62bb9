# replaces: exercise-solution
# fails: exercise-test
# Splits the heads and forgets the MLP, which holds most of the parameters.
def param_spec(path):
    """The PartitionSpec of the parameter at `path` (a tuple such as ('blocks', 0, 'attn', 'query', 'kernel'))
    on a mesh with axes ("data", "model"), Megatron-style: heads and MLP units split over "model"."""
    *_, layer, kind = path
    if layer in ("query", "key", "value"):
        return P(None, "model") if kind == "kernel" else P("model")
    if layer == "out" and kind == "kernel":
        return P("model", None)
    return P()
