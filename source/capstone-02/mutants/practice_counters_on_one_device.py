# replaces: practice-solution
# fails: practice-test
# Moments laid out like their parameters (zeros_like), but the counters left on one device: two compilations.
def sharded_training_state(config, mesh, seed, tx=tx):
    """Transformer(config, rngs=nnx.Rngs(seed)) and nnx.Optimizer(model, tx, wrt=nnx.Param), every array of
    both placed on `mesh`: parameters by param_spec, each AdamW moment like its parameter, the rest whole."""
    model = place(Transformer(config, rngs=nnx.Rngs(seed)), mesh, param_spec)
    return model, nnx.Optimizer(model, tx, wrt=nnx.Param)
