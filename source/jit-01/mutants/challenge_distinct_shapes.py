# replaces: challenge-solution
# fails: challenge-test
def count_traces(fn, inputs):
    # Predicts instead of measuring, from shapes only: misses new dtypes and weak types.
    return len({jnp.shape(x) for x in inputs})
