# replaces: challenge-solution
# fails: challenge-test
def train(key, x, y, num_classes, num_epochs, batch_size, lr):
    # Takes the batches in the stored order every epoch: the key changes nothing.
    n, features = x.shape
    params = {"w": jnp.zeros((features, num_classes)), "b": jnp.zeros(num_classes)}
    num_batches = n // batch_size
    batches = jnp.arange(num_batches * batch_size).reshape(num_batches, batch_size)

    def sgd_step(params, idx):
        loss, grads = jax.value_and_grad(loss_fn)(params, x[idx], y[idx])
        return jax.tree.map(lambda p, g: p - lr * g, params, grads), loss

    def one_epoch(params, epoch):
        return jax.lax.scan(sgd_step, params, batches)

    params, losses = jax.lax.scan(one_epoch, params, jnp.arange(num_epochs))
    return params, losses.reshape(-1)
