# replaces: exercise-solution
# fails: exercise-test
def shift_targets(tokens):
    # Off by one: the targets are the inputs themselves, so the model learns to repeat its input.
    return tokens[..., :-1], tokens[..., :-1]
