# replaces: transfer-solution
# fails: transfer-test
def set_hyperparam(opt_state, name, value):
    # Writes into the dictionary the old state holds (as Optax's docstring does): the old state changes too.
    opt_state.hyperparams[name] = value
    return opt_state
