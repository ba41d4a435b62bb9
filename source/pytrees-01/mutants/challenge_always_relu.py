# replaces: challenge-solution
# fails: challenge-test
# Registered correctly, but dense ignores the activation it stores: every layer applies relu.
@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Dense:
    w: jax.Array
    b: jax.Array
    activation: str = dataclasses.field(metadata=dict(static=True))


def dense(layer, x):
    if layer.activation not in ("relu", "tanh", "linear"):
        raise ValueError(f"unknown activation {layer.activation!r}")
    return jax.nn.relu(jnp.dot(x, layer.w, precision="highest") + layer.b)
