# replaces: practice-solution
# fails: practice-test
def train_step(model, optimizer, x, y):
    # Trains with the model in eval mode: dropout stays off and batch norm uses its running statistics.
    def loss_fn(model):
        logits = model(x, train=False)
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean(), logits

    (loss, logits), grads = nnx.value_and_grad(loss_fn, has_aux=True)(model)
    optimizer.update(model, grads)
    return {"loss": loss, "accuracy": jnp.mean(jnp.argmax(logits, axis=-1) == y)}
