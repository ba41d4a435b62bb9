# replaces: practice-solution
# fails: practice-test
# Forgets the layer norms' scales and biases.
def param_count(config):
    """The number of trainable parameters of Transformer(config), from the config alone."""
    d, h = config.dim, config.hidden
    block = 4 * (d * d + d) + (d * h + h) + (h * d + d)
    head = 0 if config.tied else d * config.vocab_size
    return config.vocab_size * d + config.context * d + config.layers * block + head
