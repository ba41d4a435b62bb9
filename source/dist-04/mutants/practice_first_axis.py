# replaces: practice-solution
# fails: practice-test
def place_fsdp(params, mesh):
    """params placed for FSDP: leading axis split over all mesh axes where it divides, else replicated."""
    # Splits over the first mesh axis only (2 of 8 on the lesson's mesh): every block is copied 4 times.
    first = mesh.axis_names[0]

    def place(leaf):
        shape = np.shape(leaf)
        divides = len(shape) > 0 and shape[0] % mesh.shape[first] == 0
        return jax.device_put(leaf, NamedSharding(mesh, P(first) if divides else P()))

    return jax.tree.map(place, params)
