# replaces: challenge-solution
# fails: challenge-test
def my_chain(*transforms):
    # Applies the members last to first: clipping after scaling limits the step, not the gradient.
    def init_fn(params):
        return tuple(t.init(params) for t in transforms)

    def update_fn(updates, state, params=None):
        new_state = list(state)
        for i in reversed(range(len(transforms))):
            updates, new_state[i] = transforms[i].update(updates, state[i], params)
        return updates, tuple(new_state)

    return optax.GradientTransformation(init_fn, update_fn)
