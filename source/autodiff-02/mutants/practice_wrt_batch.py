# replaces: practice-solution
# fails: practice-test
def loss_and_grads(loss_fn, params, batch):
    # argnums=(0, 1): also differentiates the batch, so grads is a (params, batch) pair.
    return jax.value_and_grad(loss_fn, argnums=(0, 1), has_aux=True)(params, batch)
