# replaces: exercise-solution
# fails: exercise-test
def guarded_step(state, batch, loss_fn, tx):
    # Checks only the loss: a finite loss with a NaN gradient (sqrt at 0) gets through.
    loss, grads = jax.value_and_grad(loss_fn)(state.params, batch)
    updates, opt_state = tx.update(grads, state.opt_state, state.params)
    params = optax.apply_updates(state.params, updates)
    ok = jnp.isfinite(loss)
    keep = lambda new, old: jnp.where(ok, new, old)
    new_state = state._replace(params=jax.tree.map(keep, params, state.params),
                               opt_state=jax.tree.map(keep, opt_state, state.opt_state),
                               step=state.step + 1,
                               skipped=state.skipped + jnp.where(ok, 0, 1).astype(state.skipped.dtype))
    return new_state, {"loss": loss, "finite": ok}
