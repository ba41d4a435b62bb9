# replaces: challenge-solution
# fails: challenge-test
def make_pure_apply(model):
    # The stale closure: the compiled function reads `model` from the enclosing scope and ignores
    # the state it is given (and hands it back unchanged).
    graphdef, state = nnx.split(model)

    def pure_apply(state, x, train):
        return model(x, train=train), state

    return jax.jit(pure_apply, static_argnames="train"), state
