# replaces: transfer-solution
# fails: transfer-test
def straight_through_round(x):
    # The right derivative, but the value never gets rounded.
    return x + 0.0 * jax.lax.stop_gradient(jnp.round(x) - x)
