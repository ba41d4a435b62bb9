# replaces: practice-train-solution
# fails: practice-train-test
def train(tx, params, batches, loss_fn):
    # Right numbers, but a Python loop: under jit it unrolls one copy of the step per batch.
    num_steps = jax.tree.leaves(batches)[0].shape[0]
    opt_state, losses = tx.init(params), []
    for t in range(num_steps):
        batch = jax.tree.map(lambda leaf: leaf[t], batches)
        loss, grads = jax.value_and_grad(loss_fn)(params, batch)
        updates, opt_state = tx.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        losses.append(loss)
    return params, opt_state, jnp.stack(losses)
