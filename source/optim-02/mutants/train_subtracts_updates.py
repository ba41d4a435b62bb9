# replaces: practice-train-solution
# fails: practice-train-test
def train(tx, params, batches, loss_fn):
    # params - updates: the updates already carry the minus sign, so this climbs the loss.
    def step(carry, batch):
        params, opt_state = carry
        loss, grads = jax.value_and_grad(loss_fn)(params, batch)
        updates, opt_state = tx.update(grads, opt_state, params)
        return (jax.tree.map(lambda p, u: p - u, params, updates), opt_state), loss

    (params, opt_state), losses = jax.lax.scan(step, (params, tx.init(params)), batches)
    return params, opt_state, losses
