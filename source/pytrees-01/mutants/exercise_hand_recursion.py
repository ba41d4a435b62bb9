# replaces: exercise-solution
# fails: exercise-test
def sgd_update(params, grads, lr):
    # Walks dicts, lists, tuples and None by hand: a registered class is treated as a leaf and fails.
    if isinstance(params, dict):
        return {key: sgd_update(params[key], grads[key], lr) for key in params}
    if isinstance(params, (list, tuple)):
        return type(params)(sgd_update(p, g, lr) for p, g in zip(params, grads))
    if params is None:
        return None
    return params - lr * grads
