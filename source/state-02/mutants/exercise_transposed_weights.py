# replaces: exercise-solution
# fails: exercise-test
def rnn_forward(params, h0, xs):
    # Column-vector habit W @ h: uses W transposed, right only for a symmetric W.
    def body(h, x):
        h_new = jnp.tanh(params["W"] @ h + x @ params["U"] + params["b"])
        return h_new, h_new
    _, hs = jax.lax.scan(body, h0, xs)
    return hs
