# replaces: exercise-solution
# fails: exercise-test
def guarded_step(state, batch, loss_fn, tx):
    # A refused step does not advance `step`: the loop would feed the same bad batch again, forever.
    loss, grads = jax.value_and_grad(loss_fn)(state.params, batch)
    updates, opt_state = tx.update(grads, state.opt_state, state.params)
    params = optax.apply_updates(state.params, updates)
    ok = jnp.isfinite(loss) & jnp.all(jnp.stack([jnp.all(jnp.isfinite(leaf)) for leaf in jax.tree.leaves(grads)]))
    keep = lambda new, old: jnp.where(ok, new, old)
    new_state = state._replace(params=jax.tree.map(keep, params, state.params),
                               opt_state=jax.tree.map(keep, opt_state, state.opt_state),
                               step=state.step + jnp.where(ok, 1, 0).astype(state.step.dtype),
                               skipped=state.skipped + jnp.where(ok, 0, 1).astype(state.skipped.dtype))
    return new_state, {"loss": loss, "finite": ok}
