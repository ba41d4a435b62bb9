# replaces: transfer-solution
# fails: transfer-test
def last_state(params, h0, xs, length):
    # t <= length reads one padding row too many.
    def body(h, step_input):
        x, t = step_input
        h_new = rnn_cell(params, h, x)
        return jnp.where(t <= length, h_new, h), None
    h_last, _ = jax.lax.scan(body, h0, (xs, jnp.arange(xs.shape[0])))
    return h_last
