# replaces: challenge-solution
# fails: challenge-test
def train(key, x, y, num_classes, num_epochs, batch_size, lr):
    # Runs a single epoch, whatever num_epochs says.
    n, features = x.shape
    params = {"w": jnp.zeros((features, num_classes)), "b": jnp.zeros(num_classes)}

    def sgd_step(params, idx):
        loss, grads = jax.value_and_grad(loss_fn)(params, x[idx], y[idx])
        return jax.tree.map(lambda p, g: p - lr * g, params, grads), loss

    return jax.lax.scan(sgd_step, params, epoch_batches(jax.random.fold_in(key, 0), n, batch_size))
