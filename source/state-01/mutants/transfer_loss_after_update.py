# replaces: transfer-solution
# fails: transfer-test
class TrainState(NamedTuple):
    params: dict
    step: jax.Array


LEARNING_RATE = 0.1


def train_step(state, batch):
    # Reports the loss at the NEW parameters: the metric no longer describes the batch it was trained on.
    x, y = batch

    def loss_fn(params):
        return jnp.mean((params["w"] * x + params["b"] - y) ** 2)

    grads = jax.grad(loss_fn)(state.params)
    new_params = jax.tree.map(lambda p, g: p - LEARNING_RATE * g, state.params, grads)
    return TrainState(params=new_params, step=state.step + 1), {"loss": loss_fn(new_params)}
