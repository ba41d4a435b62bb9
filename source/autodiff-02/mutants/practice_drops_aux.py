# replaces: practice-solution
# fails: practice-test
def loss_and_grads(loss_fn, params, batch):
    # Keeps only the loss: returns (loss, grads) and throws the metrics away.
    return jax.value_and_grad(lambda p, b: loss_fn(p, b)[0])(params, batch)
