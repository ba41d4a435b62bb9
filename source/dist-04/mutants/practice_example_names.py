# replaces: practice-solution
# fails: practice-test
def place_fsdp(params, mesh):
    """params placed for FSDP: leading axis split over all mesh axes where it divides, else replicated."""
    # Typed in from the lesson: the example mesh's axis names, whatever this mesh calls its axes.
    def place(leaf):
        shape = np.shape(leaf)
        divides = len(shape) > 0 and shape[0] % mesh.size == 0
        return jax.device_put(leaf, NamedSharding(mesh, P(("data", "model")) if divides else P()))

    return jax.tree.map(place, params)
