# replaces: exercise-solution
# fails: exercise-test
def shift_targets(tokens):
    # Slices the first axis: right for one window, but a batch is shifted along the batch axis.
    return tokens[:-1], tokens[1:]
