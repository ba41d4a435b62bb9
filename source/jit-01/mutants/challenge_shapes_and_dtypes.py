# replaces: challenge-solution
# fails: challenge-test
def count_traces(fn, inputs):
    # Shapes and dtypes, but not weak types: the Python 3.0 and jnp.float32(3.0) count as one.
    return len({(jnp.shape(x), jnp.result_type(x)) for x in inputs})
