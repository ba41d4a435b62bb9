# replaces: exercise-solution
# fails: exercise-test
def guarded_step(state, batch, loss_fn, tx):
    # Counts in int32 whatever the state's counter is: an int16 counter comes back int32.
    loss, grads = jax.value_and_grad(loss_fn)(state.params, batch)
    updates, opt_state = tx.update(grads, state.opt_state, state.params)
    params = optax.apply_updates(state.params, updates)
    grads_ok = jnp.all(jnp.stack([jnp.all(jnp.isfinite(leaf)) for leaf in jax.tree.leaves(grads)]))
    ok = jnp.isfinite(loss) & grads_ok
    keep = lambda new, old: jnp.where(ok, new, old)
    new_state = state._replace(params=jax.tree.map(keep, params, state.params),
                               opt_state=jax.tree.map(keep, opt_state, state.opt_state),
                               step=state.step + 1,
                               skipped=state.skipped + (~ok).astype(jnp.int32))
    return new_state, {"loss": loss, "finite": ok}
