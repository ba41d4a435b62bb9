# replaces: challenge-solution
# fails: challenge-test
def count_traces(fn, inputs):
    # A new function (and so a new cache) for every input: every call traces, nothing is reused.
    traces = 0
    for x in inputs:
        def counted(value):
            nonlocal traces
            traces += 1
            return fn(value)

        jax.jit(counted)(x)
    return traces
