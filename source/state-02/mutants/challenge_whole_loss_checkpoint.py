# replaces: challenge-solution
# fails: challenge-test
@jax.checkpoint
def rnn_loss_remat(params, h0, xs, ys):
    # Checkpoints the whole loss: the backward pass recomputes a plain scan, same peak memory.
    def body(h, x):
        h_new = rnn_cell(params, h, x)
        return h_new, h_new
    _, hs = jax.lax.scan(body, h0, xs)
    return jnp.mean((hs - ys) ** 2)
