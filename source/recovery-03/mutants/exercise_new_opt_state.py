# replaces: exercise-solution
# fails: exercise-test
def guarded_step(state, batch, loss_fn, tx):
    # Guards the parameters only: the refused step's NaN momentum is kept and poisons the next update.
    loss, grads = jax.value_and_grad(loss_fn)(state.params, batch)
    updates, opt_state = tx.update(grads, state.opt_state, state.params)
    ok = jnp.isfinite(loss) & jnp.all(jnp.stack([jnp.all(jnp.isfinite(leaf)) for leaf in jax.tree.leaves(grads)]))
    params = jax.tree.map(lambda new, old: jnp.where(ok, new, old), optax.apply_updates(state.params, updates), state.params)
    new_state = state._replace(params=params, opt_state=opt_state, step=state.step + 1,
                               skipped=state.skipped + jnp.where(ok, 0, 1).astype(state.skipped.dtype))
    return new_state, {"loss": loss, "finite": ok}
