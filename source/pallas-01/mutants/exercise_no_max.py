# replaces: exercise-solution
# fails: exercise-test
def softmax_kernel(x_ref, o_ref):
    # The textbook formula: exp(100) is inf in float32, and inf / inf is NaN.
    e = jnp.exp(x_ref[...])
    o_ref[...] = e / jnp.sum(e, axis=1, keepdims=True)
