# replaces: challenge-solution
# fails: challenge-test
def my_chain(*transforms):
    # Threads the updates but returns the states it received: momentum never accumulates.
    def init_fn(params):
        return tuple(t.init(params) for t in transforms)

    def update_fn(updates, state, params=None):
        for t, s in zip(transforms, state):
            updates, _ = t.update(updates, s, params)
        return updates, state

    return optax.GradientTransformation(init_fn, update_fn)
