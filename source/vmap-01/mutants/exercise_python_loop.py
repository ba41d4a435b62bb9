# replaces: exercise-solution
# fails: exercise-test
def batched_predict(params, xs):
    # Right numbers, but a Python loop over the rows instead of vmap: the program grows with the batch.
    return jnp.stack([mlp_one(params, x) for x in xs])
