# replaces: exercise-solution
# fails: exercise-test
def batched_predict(params, xs):
    # No vmap: hopes that broadcasting batches the one-example function (W @ xs contracts the wrong axes).
    return mlp_one(params, xs)
