# replaces: practice-solution
# fails: practice-test
def bias_sweep(params, biases):
    # One copy made before the loop and appended every time: all entries are the same dict.
    config = dict(params)
    sweep = []
    for bias in biases:
        config["bias"] = jnp.asarray(bias)
        sweep.append(config)
    return sweep
