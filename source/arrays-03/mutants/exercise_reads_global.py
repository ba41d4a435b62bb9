# replaces: exercise-solution
# fails: exercise-test
def with_weight(parameters, new_weight):
    # Copies the notebook's global `params` instead of the argument it was given.
    return {**params, "weight": jnp.asarray(new_weight)}
