# replaces: exercise-solution
# fails: exercise-test
def guarded_step(state, batch, loss_fn, tx):
    # A Python `if` on a traced value: fine eagerly, TracerBoolConversionError under jax.jit and jax.vmap.
    loss, grads = jax.value_and_grad(loss_fn)(state.params, batch)
    ok = jnp.isfinite(loss) & jnp.all(jnp.stack([jnp.all(jnp.isfinite(leaf)) for leaf in jax.tree.leaves(grads)]))
    if not ok:
        return state._replace(step=state.step + 1, skipped=state.skipped + 1), {"loss": loss, "finite": ok}
    updates, opt_state = tx.update(grads, state.opt_state, state.params)
    return state._replace(params=optax.apply_updates(state.params, updates), opt_state=opt_state,
                          step=state.step + 1), {"loss": loss, "finite": ok}
