# replaces: practice-multisteps-solution
# fails: practice-multisteps-test
def multisteps_sgd(loss_fn, params, micro_xs, micro_ys, learning_rate, k):
    # use_grad_mean=False: the wrapper SUMS the k gradients, the missing 1/k again.
    tx = optax.MultiSteps(optax.sgd(learning_rate), every_k_schedule=k, use_grad_mean=False)

    def call(carry, microbatch):
        current, opt_state = carry
        grads = jax.grad(loss_fn)(current, *microbatch)
        updates, opt_state = tx.update(grads, opt_state, current)
        return (optax.apply_updates(current, updates), opt_state), None

    (final, _), _ = jax.lax.scan(call, (params, tx.init(params)), (micro_xs, micro_ys))
    return final
