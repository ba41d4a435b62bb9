# replaces: challenge-solution
# fails: challenge-test
def rnn_loss_remat(params, h0, xs, ys):
    # Checkpointed, but compares each target with the state before the update.
    def body(h, x):
        h_new = rnn_cell(params, h, x)
        return h_new, h
    _, hs = jax.lax.scan(jax.checkpoint(body), h0, xs)
    return jnp.mean((hs - ys) ** 2)
