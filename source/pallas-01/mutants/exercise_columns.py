# replaces: exercise-solution
# fails: exercise-test
def softmax_kernel(x_ref, o_ref):
    # The softmax of every column of the block: the reduction over the wrong axis.
    x = x_ref[...]
    e = jnp.exp(x - jnp.max(x, axis=0, keepdims=True))
    o_ref[...] = e / jnp.sum(e, axis=0, keepdims=True)
