# replaces: practice-solution
# fails: practice-test
# Counts the head even for a tied model.
def param_count(config):
    """The number of trainable parameters of Transformer(config), from the config alone."""
    d, h = config.dim, config.hidden
    block = 2 * (2 * d) + 4 * (d * d + d) + (d * h + h) + (h * d + d)   # two LayerNorms, four projections, the MLP
    head = d * config.vocab_size
    return config.vocab_size * d + config.context * d + config.layers * block + 2 * d + head
