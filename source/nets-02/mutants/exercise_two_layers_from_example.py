# replaces: exercise-solution
# fails: exercise-test
class MLP(nnx.Module):
    """nnx.Linear layers sizes[0] -> sizes[1] -> ... -> sizes[-1], ReLU between them, raw logits out."""

    def __init__(self, sizes, *, rngs):
        # Written for the prompt's example [64, 32, 10]: always exactly two layers.
        self.layers = nnx.List([nnx.Linear(sizes[0], sizes[1], rngs=rngs), nnx.Linear(sizes[1], sizes[-1], rngs=rngs)])

    def __call__(self, x):
        return self.layers[1](jax.nn.relu(self.layers[0](x)))
