# replaces: exercise-solution
# fails: exercise-test
def batched_predict(params, xs):
    # The two entries swapped: maps over the parameters and hands every call the whole batch.
    return jax.vmap(mlp_one, in_axes=(0, None))(params, xs)
