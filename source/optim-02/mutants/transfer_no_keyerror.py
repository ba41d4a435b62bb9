# replaces: transfer-solution
# fails: transfer-test
def set_hyperparam(opt_state, name, value):
    # Never looks the name up: a typo like "lr" is stored silently and the real learning rate stays.
    return opt_state._replace(hyperparams={**opt_state.hyperparams,
                                           name: jnp.asarray(value, dtype=opt_state.hyperparams["learning_rate"].dtype)})
