# replaces: practice-solution
# fails: practice-test
# Places the whole optimizer state replicated: every device holds both moments of every parameter.
def sharded_training_state(config, mesh, seed, tx=tx):
    """Transformer(config, rngs=nnx.Rngs(seed)) and nnx.Optimizer(model, tx, wrt=nnx.Param), every array of
    both placed on `mesh`: parameters by param_spec, each AdamW moment like its parameter, the rest whole."""
    model = place(Transformer(config, rngs=nnx.Rngs(seed)), mesh, param_spec)
    return model, place(nnx.Optimizer(model, tx, wrt=nnx.Param), mesh, lambda path: P())
