# replaces: practice-solution
# fails: practice-test
def place_for_dp(params, batch, mesh):
    """(params, batch) on mesh: every params leaf replicated, every batch leaf split along axis 0 over all mesh axes."""
    # Everything replicated: right values, right devices, but every device holds the whole batch.
    replicated = NamedSharding(mesh, P())
    return jax.device_put(params, replicated), jax.device_put(batch, replicated)
