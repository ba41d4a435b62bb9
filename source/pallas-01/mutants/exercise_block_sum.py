# replaces: exercise-solution
# fails: exercise-test
def softmax_kernel(x_ref, o_ref):
    # Row maxima, but one sum for the whole block: the block, not each row, sums to 1.
    x = x_ref[...]
    e = jnp.exp(x - jnp.max(x, axis=1, keepdims=True))
    o_ref[...] = e / jnp.sum(e)
