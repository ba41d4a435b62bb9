# replaces: practice-solution
# fails: practice-test
def place_fsdp(params, mesh):
    """params placed for FSDP: leading axis split over all mesh axes where it divides, else replicated."""
    # Splits the LAST dimension (the columns of a weight) instead of the leading one.
    def place(leaf):
        shape = np.shape(leaf)
        if len(shape) > 0 and shape[-1] % mesh.size == 0:
            spec = P(*([None] * (len(shape) - 1)), tuple(mesh.axis_names))
        else:
            spec = P()
        return jax.device_put(leaf, NamedSharding(mesh, spec))

    return jax.tree.map(place, params)
