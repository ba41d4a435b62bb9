# replaces: practice-train-solution
# fails: practice-train-test
def train(tx, params, batches, loss_fn):
    # Reports the loss at the NEW parameters, not the ones the gradient was taken at.
    def step(carry, batch):
        params, opt_state = carry
        grads = jax.grad(loss_fn)(params, batch)
        updates, opt_state = tx.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        return (params, opt_state), loss_fn(params, batch)

    (params, opt_state), losses = jax.lax.scan(step, (params, tx.init(params)), batches)
    return params, opt_state, losses
