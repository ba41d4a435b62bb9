# replaces: practice-solution
# fails: practice-test
# Assumes the MLP is 4 * dim wide, whatever config.hidden says.
def param_count(config):
    """The number of trainable parameters of Transformer(config), from the config alone."""
    d, h = config.dim, 4 * config.dim
    block = 2 * (2 * d) + 4 * (d * d + d) + (d * h + h) + (h * d + d)   # two LayerNorms, four projections, the MLP
    head = 0 if config.tied else d * config.vocab_size
    return config.vocab_size * d + config.context * d + config.layers * block + 2 * d + head
