# replaces: transfer-solution
# fails: transfer-test
def with_layer_param(params, layer, name, value):
    # Replaces the whole layer with a one-entry dictionary: its other entries are lost.
    return {**params, layer: {name: jnp.asarray(value)}}
