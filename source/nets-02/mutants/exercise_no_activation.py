# replaces: exercise-solution
# fails: exercise-test
class MLP(nnx.Module):
    """nnx.Linear layers sizes[0] -> sizes[1] -> ... -> sizes[-1], ReLU between them, raw logits out."""

    def __init__(self, sizes, *, rngs):
        self.layers = nnx.List([nnx.Linear(n_in, n_out, rngs=rngs) for n_in, n_out in zip(sizes[:-1], sizes[1:])])

    def __call__(self, x):
        # No activation between the layers: the stack collapses into one linear map.
        for layer in self.layers:
            x = layer(x)
        return x
