# replaces: transfer-solution
# fails: transfer-test
def with_layer_param(params, layer, name, value):
    # A new outer dictionary, but the assignment lands in the shared inner one.
    new_params = {**params}
    new_params[layer][name] = jnp.asarray(value)
    return new_params
