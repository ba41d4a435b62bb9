# replaces: challenge-solution
# fails: challenge-test
def my_chain(first, second):
    # Written for the prompt's example only: exactly two members.
    def init_fn(params):
        return (first.init(params), second.init(params))

    def update_fn(updates, state, params=None):
        updates, s1 = first.update(updates, state[0], params)
        updates, s2 = second.update(updates, state[1], params)
        return updates, (s1, s2)

    return optax.GradientTransformation(init_fn, update_fn)
