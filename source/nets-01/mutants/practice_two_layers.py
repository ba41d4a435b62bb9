# replaces: practice-apply-solution
# fails: practice-apply-test
def mlp_apply(params, x):
    # Written for the two-layer example only: a third layer is ignored, a single layer raises IndexError.
    hidden = jax.nn.relu(x @ params[0]["w"] + params[0]["b"])
    return hidden @ params[1]["w"] + params[1]["b"]
