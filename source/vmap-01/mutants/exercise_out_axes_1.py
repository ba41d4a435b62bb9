# replaces: exercise-solution
# fails: exercise-test
def batched_predict(params, xs):
    # Puts the batch axis second: (classes, batch), the transpose of what was asked.
    return jax.vmap(mlp_one, in_axes=(None, 0), out_axes=1)(params, xs)
