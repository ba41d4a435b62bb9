# replaces: challenge-solution
# fails: challenge-test
# An ordinary dataclass: JAX sees the whole layer as one opaque leaf.
@dataclasses.dataclass
class Dense:
    w: jax.Array
    b: jax.Array
    activation: str


ACTIVATIONS = {"relu": jax.nn.relu, "tanh": jnp.tanh, "linear": lambda z: z}


def dense(layer, x):
    if layer.activation not in ACTIVATIONS:
        raise ValueError(f"unknown activation {layer.activation!r}")
    return ACTIVATIONS[layer.activation](jnp.dot(x, layer.w, precision="highest") + layer.b)
