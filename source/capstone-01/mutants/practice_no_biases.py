# replaces: practice-solution
# fails: practice-test
# Counts the kernels but not the projections' and the MLP's biases.
def param_count(config):
    """The number of trainable parameters of Transformer(config), from the config alone."""
    d, h = config.dim, config.hidden
    block = 2 * (2 * d) + 4 * (d * d) + (d * h) + (h * d)
    head = 0 if config.tied else d * config.vocab_size
    return config.vocab_size * d + config.context * d + config.layers * block + 2 * d + head
