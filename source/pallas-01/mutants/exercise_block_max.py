# replaces: exercise-solution
# fails: exercise-test
def softmax_kernel(x_ref, o_ref):
    # One maximum for the whole block: a row far below it underflows to 0 / 0.
    x = x_ref[...]
    e = jnp.exp(x - jnp.max(x))
    o_ref[...] = e / jnp.sum(e, axis=1, keepdims=True)
