# replaces: exercise-solution
# fails: exercise-test
class MLP(nnx.Module):
    """nnx.Linear layers sizes[0] -> sizes[1] -> ... -> sizes[-1], ReLU between them, raw logits out."""

    def __init__(self, sizes, *, rngs):
        # Creates the layers last to first: the right shapes, but every layer gets other keys from rngs.
        pairs = list(zip(sizes[:-1], sizes[1:]))
        layers = [nnx.Linear(n_in, n_out, rngs=rngs) for n_in, n_out in reversed(pairs)]
        self.layers = nnx.List(layers[::-1])

    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = jax.nn.relu(layer(x))
        return self.layers[-1](x)
