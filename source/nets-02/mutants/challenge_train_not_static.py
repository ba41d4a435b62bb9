# replaces: challenge-solution
# fails: challenge-test
def make_pure_apply(model):
    # jax.jit without static_argnames: `train` is traced, and `not train` inside the layers fails.
    graphdef, state = nnx.split(model)

    def pure_apply(state, x, train):
        module = nnx.merge(graphdef, state)
        out = module(x, train=train)
        return out, nnx.state(module)

    return jax.jit(pure_apply), state
