# replaces: exercise-solution
# fails: exercise-test
def batched_predict(params, xs):
    # Default in_axes=0 for BOTH arguments: every parameter array is sliced along its first axis too.
    return jax.vmap(mlp_one)(params, xs)
