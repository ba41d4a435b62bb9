# replaces: exercise-solution
# fails: exercise-test
# Also splits the vocabulary: the token table by rows and the head by columns.
def param_spec(path):
    """The PartitionSpec of the parameter at `path` (a tuple such as ('blocks', 0, 'attn', 'query', 'kernel'))
    on a mesh with axes ("data", "model"), Megatron-style: heads and MLP units split over "model"."""
    *_, layer, kind = path
    if layer in ("query", "key", "value", "fc1", "head"):
        return P(None, "model") if kind == "kernel" else P("model")
    if layer in ("out", "fc2") and kind == "kernel":
        return P("model", None)
    if layer == "token_embed":
        return P("model", None)
    return P()
