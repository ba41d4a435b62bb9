# replaces: transfer-solution
# fails: transfer-test
def set_hyperparam(opt_state, name, value):
    # jnp.asarray(0.25) is a weakly typed float32: wrong dtype for bfloat16 states, and a new trace.
    old = opt_state.hyperparams[name]
    return opt_state._replace(hyperparams={**opt_state.hyperparams, name: jnp.asarray(value)})
