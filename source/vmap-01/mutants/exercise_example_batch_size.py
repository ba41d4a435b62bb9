# replaces: exercise-solution
# fails: exercise-test
def batched_predict(params, xs):
    # A loop over the example's batch size, 3: wrong for every other batch.
    return jnp.stack([mlp_one(params, xs[i]) for i in range(3)])
