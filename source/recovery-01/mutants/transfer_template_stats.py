# replaces: transfer-solution
# fails: transfer-test
def predict_from_checkpoint(path, raw_inputs, template):
    # Restores the weights but standardizes with this process's own statistics (the template's).
    checkpointer = ocp.StandardCheckpointer()
    state = checkpointer.restore(pathlib.Path(path).resolve(), jax.tree.map(ocp.utils.to_shape_dtype_struct, template))
    checkpointer.close()
    x = (raw_inputs - template.norm["mean"]) / template.norm["std"]
    return jnp.matmul(x, state.params["w"], precision="highest") + state.params["b"]
