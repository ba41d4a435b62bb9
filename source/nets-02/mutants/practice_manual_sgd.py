# replaces: practice-solution
# fails: practice-test
def train_step(model, optimizer, x, y):
    # Ignores the optimizer: plain SGD at the visible test's learning rate 0.5, written into the model
    # with nnx.update. No momentum or Adam state, and optimizer.step never moves.
    def loss_fn(model):
        logits = model(x, train=True)
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean(), logits

    (loss, logits), grads = nnx.value_and_grad(loss_fn, has_aux=True)(model)
    params = nnx.state(model, nnx.Param)
    nnx.update(model, jax.tree.map(lambda p, g: p - 0.5 * g, params, grads))
    return {"loss": loss, "accuracy": jnp.mean(jnp.argmax(logits, axis=-1) == y)}
