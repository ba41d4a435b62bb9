# replaces: practice-solution
# fails: practice-test
def place_fsdp(params, mesh):
    """params placed for FSDP: leading axis split over all mesh axes where it divides, else replicated."""
    # Splits every leaf: raises for a leading dimension that does not divide, and for a scalar.
    return jax.device_put(params, NamedSharding(mesh, P(tuple(mesh.axis_names))))
