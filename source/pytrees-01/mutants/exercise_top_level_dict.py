# replaces: exercise-solution
# fails: exercise-test
def sgd_update(params, grads, lr):
    # Written for the prompt's flat dictionary: one level of keys, so nested trees break.
    return {key: params[key] - lr * grads[key] for key in params}
