# replaces: practice-solution
# fails: practice-test
def place_for_dp(params, batch, mesh):
    """(params, batch) on mesh: every params leaf replicated, every batch leaf split along axis 0 over all mesh axes."""
    # One sharding for everything: the parameters get split along their first axis as well.
    split = NamedSharding(mesh, P(tuple(mesh.axis_names)))
    return jax.device_put((params, batch), split)
