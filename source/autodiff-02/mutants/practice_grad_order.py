# replaces: practice-solution
# fails: practice-test
def loss_and_grads(loss_fn, params, batch):
    # jax.grad(..., has_aux=True) returns (grads, aux): no loss, and the wrong order.
    return jax.grad(loss_fn, has_aux=True)(params, batch)
