# replaces: practice-multisteps-solution
# fails: practice-multisteps-test
def multisteps_sgd(loss_fn, params, micro_xs, micro_ys, learning_rate, k):
    # Computes every microbatch gradient up front, at the INITIAL params: right for one
    # group, stale for every group after the first update.
    tx = optax.MultiSteps(optax.sgd(learning_rate), every_k_schedule=k)
    all_grads = jax.vmap(jax.grad(loss_fn), in_axes=(None, 0, 0))(params, micro_xs, micro_ys)

    def call(carry, grads):
        current, opt_state = carry
        updates, opt_state = tx.update(grads, opt_state, current)
        return (optax.apply_updates(current, updates), opt_state), None

    (final, _), _ = jax.lax.scan(call, (params, tx.init(params)), all_grads)
    return final
