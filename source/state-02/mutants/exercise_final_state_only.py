# replaces: exercise-solution
# fails: exercise-test
def rnn_forward(params, h0, xs):
    # Copies Step 2's encode: returns the final state, not the states of every step.
    def body(h, x):
        return rnn_cell(params, h, x), None
    h_final, _ = jax.lax.scan(body, h0, xs)
    return h_final
