# replaces: exercise-solution
# fails: exercise-test
def with_weight(params, new_weight):
    # Assigns into the caller's dictionary and hands it back: the old model is gone.
    params["weight"] = jnp.asarray(new_weight)
    return params
