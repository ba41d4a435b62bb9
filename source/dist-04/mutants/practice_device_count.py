# replaces: practice-solution
# fails: practice-test
def place_fsdp(params, mesh):
    # Tests the rows against every device the machine has, not against the mesh's devices.
    split = NamedSharding(mesh, P(tuple(mesh.axis_names)))
    whole = NamedSharding(mesh, P())

    def place(leaf):
        shape = np.shape(leaf)
        divides = len(shape) > 0 and shape[0] % jax.device_count() == 0
        return jax.device_put(leaf, split if divides else whole)

    return jax.tree.map(place, params)
