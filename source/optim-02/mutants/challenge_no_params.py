# replaces: challenge-solution
# fails: challenge-test
def my_chain(*transforms):
    # Does not pass params on: members that need them (weight decay) fail.
    def init_fn(params):
        return tuple(t.init(params) for t in transforms)

    def update_fn(updates, state, params=None):
        new_state = []
        for t, s in zip(transforms, state):
            updates, s = t.update(updates, s)
            new_state.append(s)
        return updates, tuple(new_state)

    return optax.GradientTransformation(init_fn, update_fn)
