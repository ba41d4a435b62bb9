# replaces: transfer-solution
# fails: transfer-test
def predict_from_checkpoint(path, raw_inputs, template):
    # Forgets the preprocessing: feeds raw units (hPa around 1000) to weights learned on standardized inputs.
    checkpointer = ocp.StandardCheckpointer()
    state = checkpointer.restore(pathlib.Path(path).resolve(), jax.tree.map(ocp.utils.to_shape_dtype_struct, template))
    checkpointer.close()
    return jnp.matmul(raw_inputs, state.params["w"], precision="highest") + state.params["b"]
