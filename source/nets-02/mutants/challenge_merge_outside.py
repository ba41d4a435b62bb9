# replaces: challenge-solution
# fails: challenge-test
def make_pure_apply(model):
    # Merges once, outside the compiled function, and closes over that module: the state argument
    # is ignored, and in train mode the module tries to write tracers into its own variables.
    graphdef, state = nnx.split(model)
    module = nnx.merge(graphdef, state)

    def pure_apply(state, x, train):
        out = module(x, train=train)
        return out, nnx.state(module)

    return jax.jit(pure_apply, static_argnames="train"), state
