# replaces: practice-solution
# fails: practice-test
def place_fsdp(params, mesh):
    """params placed for FSDP: leading axis split over all mesh axes where it divides, else replicated."""
    # "Biases are small": splits only 2-D leaves and replicates every vector, even one that divides.
    def place(leaf):
        shape = np.shape(leaf)
        divides = len(shape) == 2 and shape[0] % mesh.size == 0
        return jax.device_put(leaf, NamedSharding(mesh, P(tuple(mesh.axis_names)) if divides else P()))

    return jax.tree.map(place, params)
