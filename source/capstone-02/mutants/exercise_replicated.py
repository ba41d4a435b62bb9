# replaces: exercise-solution
# fails: exercise-test
# Data parallelism only: every parameter whole on every device.
def param_spec(path):
    """The PartitionSpec of the parameter at `path` (a tuple such as ('blocks', 0, 'attn', 'query', 'kernel'))
    on a mesh with axes ("data", "model"), Megatron-style: heads and MLP units split over "model"."""
    return P()
