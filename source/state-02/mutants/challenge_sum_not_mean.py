# replaces: challenge-solution
# fails: challenge-test
def rnn_loss_remat(params, h0, xs, ys):
    # Sums the squared errors instead of averaging them over the T * H entries.
    def body(h, x):
        h_new = rnn_cell(params, h, x)
        return h_new, h_new
    _, hs = jax.lax.scan(jax.checkpoint(body), h0, xs)
    return jnp.sum((hs - ys) ** 2)
