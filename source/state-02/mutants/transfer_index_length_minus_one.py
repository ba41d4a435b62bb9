# replaces: transfer-solution
# fails: transfer-test
def last_state(params, h0, xs, length):
    # Picks row length - 1 of all states: for length 0 that is hs[-1], not h0.
    def body(h, x):
        h_new = rnn_cell(params, h, x)
        return h_new, h_new
    _, hs = jax.lax.scan(body, h0, xs)
    return hs[length - 1]
