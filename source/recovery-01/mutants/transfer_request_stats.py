# replaces: transfer-solution
# fails: transfer-test
def predict_from_checkpoint(path, raw_inputs, template):
    # Standardizes with the requests' own statistics: one row gives 0 / 0, and a batch shifts them all.
    checkpointer = ocp.StandardCheckpointer()
    state = checkpointer.restore(pathlib.Path(path).resolve(), jax.tree.map(ocp.utils.to_shape_dtype_struct, template))
    checkpointer.close()
    x = (raw_inputs - raw_inputs.mean(axis=0)) / raw_inputs.std(axis=0)
    return jnp.matmul(x, state.params["w"], precision="highest") + state.params["b"]
