# replaces: transfer-solution
# fails: transfer-test
def set_hyperparam(opt_state, name, value):
    # Always float32: right for float32 parameters, but a bfloat16 state changes dtype (and traces again).
    old = opt_state.hyperparams[name]
    return opt_state._replace(hyperparams={**opt_state.hyperparams, name: jnp.float32(value)})
