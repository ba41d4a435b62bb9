# replaces: transfer-solution
# fails: transfer-test
def straight_through_round(x):
    # Stops the gradient of the whole result, not only of the correction.
    return jax.lax.stop_gradient(x + jnp.round(x) - x)
