# replaces: exercise-solution
# fails: exercise-test
def with_weight(params, new_weight):
    # Rebuilds the dictionary from the two keys it knows about; any other entry is lost.
    return {"weight": jnp.asarray(new_weight), "bias": params["bias"]}
