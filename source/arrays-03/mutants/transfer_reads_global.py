# replaces: transfer-solution
# fails: transfer-test
def with_layer_param(tree, layer, name, value):
    # Copies the global `net` from Experiment 5 instead of the tree it was given.
    return {**net, layer: {**net[layer], name: jnp.asarray(value)}}
