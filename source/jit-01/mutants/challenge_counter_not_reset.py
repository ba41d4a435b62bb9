# replaces: challenge-solution
# fails: challenge-test
trace_counter = [0]


def count_traces(fn, inputs):
    # A module-level counter: every call adds to the counts of all earlier calls.
    def counted(x):
        trace_counter[0] += 1
        return fn(x)

    compiled = jax.jit(counted)
    for x in inputs:
        compiled(x)
    return trace_counter[0]
