# replaces: challenge-solution
# fails: challenge-test
def rnn_loss_remat(params, h0, xs, ys):
    # Right values, but no checkpoint: the backward pass keeps every intermediate.
    def body(h, x):
        h_new = rnn_cell(params, h, x)
        return h_new, h_new
    _, hs = jax.lax.scan(body, h0, xs)
    return jnp.mean((hs - ys) ** 2)
