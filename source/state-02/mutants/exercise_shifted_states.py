# replaces: exercise-solution
# fails: exercise-test
def rnn_forward(params, h0, xs):
    # Emits the state the step received: hs starts with h0 and misses the final state.
    def body(h, x):
        h_new = rnn_cell(params, h, x)
        return h_new, h
    _, hs = jax.lax.scan(body, h0, xs)
    return hs
