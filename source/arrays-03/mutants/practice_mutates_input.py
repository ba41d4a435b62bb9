# replaces: practice-solution
# fails: practice-test
def bias_sweep(params, biases):
    # Copies are distinct, but each bias is first written into the caller's dictionary.
    sweep = []
    for bias in biases:
        params["bias"] = jnp.asarray(bias)
        sweep.append(dict(params))
    return sweep
