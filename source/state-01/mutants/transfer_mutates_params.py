# replaces: transfer-solution
# fails: transfer-test
class TrainState(NamedTuple):
    params: dict
    step: jax.Array


LEARNING_RATE = 0.1


def train_step(state, batch):
    # Writes the new parameters into the dictionary it received: the caller's old state changes too.
    x, y = batch

    def loss_fn(params):
        return jnp.mean((params["w"] * x + params["b"] - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    params = state.params
    for name in ("w", "b"):
        params[name] = params[name] - LEARNING_RATE * grads[name]
    return TrainState(params=params, step=state.step + 1), {"loss": loss}
