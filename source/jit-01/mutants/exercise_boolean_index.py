# replaces: exercise-solution
# fails: exercise-test
def masked_sum(x, threshold):
    # Boolean indexing: right eagerly, but the selection's length depends on the values,
    # so jax.jit (and jax.vmap) raise NonConcreteBooleanIndexError.
    return x[x > threshold].sum()
