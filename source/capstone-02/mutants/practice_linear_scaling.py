# replaces: practice-solution
# fails: practice-test
# Scales the learning rate by the data axis ("two replicas, twice the rate"): not the one-device run.
def sharded_training_state(config, mesh, seed, tx=tx):
    """Transformer(config, rngs=nnx.Rngs(seed)) and nnx.Optimizer(model, tx, wrt=nnx.Param), every array of
    both placed on `mesh`: parameters by param_spec, each AdamW moment like its parameter, the rest whole."""
    model = place(Transformer(config, rngs=nnx.Rngs(seed)), mesh, param_spec)
    optimizer = nnx.Optimizer(model, optax.adamw(3e-3 * mesh.shape["data"]), wrt=nnx.Param)
    return model, place(optimizer, mesh, lambda path: param_spec(path[3:]) if path[2:3] in (("mu",), ("nu",)) else P())
