# replaces: practice-solution
# fails: practice-test
def place_for_dp(params, batch, mesh):
    """(params, batch) on mesh: every params leaf replicated, every batch leaf split along axis 0 over all mesh axes."""
    # Splits the batch over the first mesh axis only and replicates it over the others.
    return (jax.device_put(params, NamedSharding(mesh, P())),
            jax.device_put(batch, NamedSharding(mesh, P(mesh.axis_names[0]))))
