# replaces: challenge-solution
# fails: challenge-test
def make_pure_apply(model):
    # Forgets jax.jit: every call runs eagerly, and the merged module shares its variables with `model`,
    # so a train-mode call changes the original model.
    graphdef, state = nnx.split(model)

    def pure_apply(state, x, train):
        module = nnx.merge(graphdef, state)
        out = module(x, train=train)
        return out, nnx.state(module)

    return pure_apply, state
