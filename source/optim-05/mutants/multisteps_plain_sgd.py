# replaces: practice-multisteps-solution
# fails: practice-multisteps-test
def multisteps_sgd(loss_fn, params, micro_xs, micro_ys, learning_rate, k):
    # Forgets the wrapper: one plain SGD step per microbatch, whatever k is.
    tx = optax.sgd(learning_rate)

    def call(carry, microbatch):
        current, opt_state = carry
        grads = jax.grad(loss_fn)(current, *microbatch)
        updates, opt_state = tx.update(grads, opt_state, current)
        return (optax.apply_updates(current, updates), opt_state), None

    (final, _), _ = jax.lax.scan(call, (params, tx.init(params)), (micro_xs, micro_ys))
    return final
