# replaces: challenge-solution
# fails: challenge-test
def my_chain(*transforms):
    # Gives every member the ORIGINAL gradient and returns the last member's output: nothing is threaded.
    def init_fn(params):
        return tuple(t.init(params) for t in transforms)

    def update_fn(updates, state, params=None):
        new_state, out = [], updates
        for t, s in zip(transforms, state):
            out, s = t.update(updates, s, params)
            new_state.append(s)
        return out, tuple(new_state)

    return optax.GradientTransformation(init_fn, update_fn)
