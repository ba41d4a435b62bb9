# replaces: transfer-solution
# fails: transfer-test
def last_state(params, h0, xs, length):
    # Ignores length: the padding rows update the state too.
    def body(h, x):
        return rnn_cell(params, h, x), None
    h_last, _ = jax.lax.scan(body, h0, xs)
    return h_last
