# replaces: practice-solution
# fails: practice-test
# Builds the optimizer before placing the model: its moments and counters stay on one device.
def sharded_training_state(config, mesh, seed, tx=tx):
    """Transformer(config, rngs=nnx.Rngs(seed)) and nnx.Optimizer(model, tx, wrt=nnx.Param), every array of
    both placed on `mesh`: parameters by param_spec, each AdamW moment like its parameter, the rest whole."""
    model = Transformer(config, rngs=nnx.Rngs(seed))
    optimizer = nnx.Optimizer(model, tx, wrt=nnx.Param)
    return place(model, mesh, param_spec), optimizer
