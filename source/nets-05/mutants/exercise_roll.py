# replaces: exercise-solution
# fails: exercise-test
def shift_targets(tokens):
    # jnp.roll keeps the length and wraps the first token around: the last "target" is not next.
    return tokens, jnp.roll(tokens, -1, axis=-1)
