# replaces: practice-solution
# fails: practice-test
def train_step(model, optimizer, x, y):
    # Trains in train mode, but measures the accuracy with a second, eval-mode forward pass: dropout
    # off and BatchNorm on its running statistics, not the pass the loss and the gradients came from.
    accuracy = jnp.mean(jnp.argmax(model(x, train=False), axis=-1) == y)

    def loss_fn(model):
        return optax.softmax_cross_entropy_with_integer_labels(model(x, train=True), y).mean()

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return {"loss": loss, "accuracy": accuracy}
