# replaces: exercise-solution
# fails: exercise-test
def shift_targets(tokens):
    # Inputs and targets swapped: the model would predict the previous token.
    return tokens[..., 1:], tokens[..., :-1]
