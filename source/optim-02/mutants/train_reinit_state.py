# replaces: practice-train-solution
# fails: practice-train-test
def train(tx, params, batches, loss_fn):
    # Starts every step from tx.init: momentum, Adam's moments and the schedule's count are lost.
    def step(carry, batch):
        params, opt_state = carry
        loss, grads = jax.value_and_grad(loss_fn)(params, batch)
        updates, opt_state = tx.update(grads, tx.init(params), params)
        return (optax.apply_updates(params, updates), opt_state), loss

    (params, opt_state), losses = jax.lax.scan(step, (params, tx.init(params)), batches)
    return params, opt_state, losses
