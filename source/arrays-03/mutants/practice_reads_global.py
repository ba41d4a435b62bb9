# replaces: practice-solution
# fails: practice-test
def bias_sweep(parameters, biases):
    # Builds every configuration from the global `params`, not from the argument.
    return [{**params, "bias": jnp.asarray(bias)} for bias in biases]
