# replaces: challenge-solution
# fails: challenge-test
# Falls back to the linear layer for a name it does not know, instead of raising ValueError.
@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Dense:
    w: jax.Array
    b: jax.Array
    activation: str = dataclasses.field(metadata=dict(static=True))


def dense(layer, x):
    z = jnp.dot(x, layer.w, precision="highest") + layer.b
    if layer.activation == "relu":
        return jax.nn.relu(z)
    if layer.activation == "tanh":
        return jnp.tanh(z)
    return z
