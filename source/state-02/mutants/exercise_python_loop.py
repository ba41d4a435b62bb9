# replaces: exercise-solution
# fails: exercise-test
def rnn_forward(params, h0, xs):
    # Right values, but a Python loop: unrolled into T copies of the step when traced.
    h, hs = h0, []
    for x in xs:
        h = rnn_cell(params, h, x)
        hs.append(h)
    return jnp.stack(hs)
