# replaces: exercise-solution
# fails: exercise-test
def guarded_step(state, batch, loss_fn, tx):
    # Looks for NaN only: a loss that overflowed to inf (with finite, huge gradients) is applied.
    loss, grads = jax.value_and_grad(loss_fn)(state.params, batch)
    updates, opt_state = tx.update(grads, state.opt_state, state.params)
    params = optax.apply_updates(state.params, updates)
    ok = ~jnp.isnan(loss) & jnp.all(jnp.stack([~jnp.any(jnp.isnan(leaf)) for leaf in jax.tree.leaves(grads)]))
    keep = lambda new, old: jnp.where(ok, new, old)
    new_state = state._replace(params=jax.tree.map(keep, params, state.params),
                               opt_state=jax.tree.map(keep, opt_state, state.opt_state),
                               step=state.step + 1,
                               skipped=state.skipped + jnp.where(ok, 0, 1).astype(state.skipped.dtype))
    return new_state, {"loss": loss, "finite": ok}
