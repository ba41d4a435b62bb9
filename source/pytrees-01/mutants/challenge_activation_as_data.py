# replaces: challenge-solution
# fails: challenge-test
# The activation is registered as a data field: it becomes a leaf, and jax.jit cannot trace a string.
@jax.tree_util.register_dataclass
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
