# replaces: practice-solution
# fails: practice-test
def train_step(model, optimizer, x, y):
    # Sums the per-example losses instead of averaging them: the loss and every gradient are batch-size times too big.
    def loss_fn(model):
        logits = model(x, train=True)
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).sum(), logits

    (loss, logits), grads = nnx.value_and_grad(loss_fn, has_aux=True)(model)
    optimizer.update(model, grads)
    return {"loss": loss, "accuracy": jnp.mean(jnp.argmax(logits, axis=-1) == y)}
