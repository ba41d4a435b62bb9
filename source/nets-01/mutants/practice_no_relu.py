# replaces: practice-apply-solution
# fails: practice-apply-test, challenge-test
def mlp_apply(params, x):
    # No activation at all: the layers collapse into one linear map.
    h = x
    for layer in params:
        h = h @ layer["w"] + layer["b"]
    return h
